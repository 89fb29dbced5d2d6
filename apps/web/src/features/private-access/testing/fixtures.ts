import type { PrivateService, UserDevices, ZtnaRule } from '@palisade/contracts';
import { makeSiteGateway } from '../../../testing/site-gateways';

export const BERLIN_ID = '11111111-1111-4111-8111-111111111111';
export const MUNICH_ID = '22222222-2222-4222-8222-222222222222';
export const OLD_SITE_ID = '33333333-3333-4333-8333-333333333333';
export const ANN_ID = '44444444-4444-4444-8444-444444444444';
export const BOB_ID = '55555555-5555-4555-8555-555555555555';
export const ENGINEERING_ID = '66666666-6666-4666-8666-666666666666';
export const CONTRACTORS_ID = '77777777-7777-4777-8777-777777777777';

export const BERLIN = makeSiteGateway({ id: BERLIN_ID, name: 'Berlin office' });
export const MUNICH = makeSiteGateway({ id: MUNICH_ID, name: 'Munich shop', status: 'offline' });
/** Retired: never offered for a new entry. */
export const OLD_SITE = makeSiteGateway({ id: OLD_SITE_ID, name: 'Old warehouse', status: 'retired' });

/** An end user as the user search answers. */
function endUser(id: string, username: string, fullname: string): UserDevices {
  return { id, username, fullname, connstatus: 'connected', state: 'enrolled', link: null, devices: [] };
}

export const ANN = endUser(ANN_ID, 'ann@acme.example', 'Ann Archer');
export const BOB = endUser(BOB_ID, 'bob@acme.example', 'Bob Baker');

export const GROUP_OPTIONS = [
  { id: ENGINEERING_ID, name: 'Engineering' },
  { id: CONTRACTORS_ID, name: 'Contractors' },
];

/** The intranet on the Berlin office's LAN, for Ann and Engineering. */
export const INTRANET: PrivateService = {
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  name: 'Intranet',
  gatewayId: BERLIN_ID,
  gatewayName: 'Berlin office',
  address: '192.168.1.20',
  protocol: 'tcp',
  ports: '443',
  users: [{ id: ANN_ID, name: 'ann@acme.example' }],
  groups: [{ id: ENGINEERING_ID, name: 'Engineering' }],
  enabled: true,
  updatedAt: '2026-03-01T10:00:00.000Z',
};

/** A disabled service for nobody yet. */
export const MEDIA: PrivateService = {
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  name: 'Media server',
  gatewayId: MUNICH_ID,
  gatewayName: 'Munich shop',
  address: '10.20.0.5',
  protocol: 'udp',
  ports: '8000-8080',
  users: [],
  groups: [],
  enabled: false,
  updatedAt: '2026-03-01T10:00:00.000Z',
};

/** The Berlin file servers' network on SMB, for Engineering. */
export const FILES: ZtnaRule = {
  id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
  name: 'File servers',
  gatewayId: BERLIN_ID,
  gatewayName: 'Berlin office',
  destination: '192.168.1.0/24',
  protocol: 'tcp',
  ports: '445',
  users: [],
  groups: [{ id: ENGINEERING_ID, name: 'Engineering' }],
  enabled: true,
  updatedAt: '2026-03-01T10:00:00.000Z',
};

/** Every port of one Munich host, for Bob. */
export const TILL: ZtnaRule = {
  id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd',
  name: 'Till',
  gatewayId: MUNICH_ID,
  gatewayName: 'Munich shop',
  destination: '10.20.0.9',
  protocol: 'any',
  ports: null,
  users: [{ id: BOB_ID, name: 'bob@acme.example' }],
  groups: [],
  enabled: true,
  updatedAt: '2026-03-01T10:00:00.000Z',
};
