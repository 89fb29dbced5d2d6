import type { ConnectionEvent, DeviceEvent, DeviceListItem, Gateway, User } from '@palisade/contracts';

const MINUTE = 60_000;
/** An ISO time `ms` before now. */
export const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

export const ANN = { id: '11111111-1111-4111-8111-111111111111', name: 'ann@acme.example' };
export const BEN = { id: '22222222-2222-4222-8222-222222222222', name: 'ben@acme.example' };
export const LAPTOP = { id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'Ann’s laptop' };
export const PHONE = { id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', name: 'Ben’s phone' };
export const FRANKFURT = { id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', name: 'Frankfurt 1' };
export const BERLIN = { id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', name: 'Berlin office' };

/** A user as the users list answers it (the user filter's choices). */
export function makeUser(named: { id: string; name: string }, fullname: string): User {
  const [firstname, lastname] = fullname.split(' ');
  return {
    id: named.id,
    userid: named.id,
    username: named.name,
    shortname: named.name.split('@')[0],
    firstname,
    lastname,
    fullname,
    email: named.name,
    groups: [],
    connstatus: 'connected',
    isprvaccess: false,
    issiauser: false,
    isxdrenabled: false,
    suci: null,
    imsi: null,
    usertype: 0,
    tenant: 'acme',
    status: 'active',
    statusReason: null,
    statusChangedBy: null,
    statusChangedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** A device as the device list answers it (the device filter's choices). */
export function makeDevice(
  named: { id: string; name: string },
  owner: { id: string; name: string },
): DeviceListItem {
  return {
    id: named.id,
    kind: 'endpoint',
    name: named.name,
    os: 'windows',
    userId: owner.id,
    username: owner.name,
    status: 'online',
    state: 'active',
    lastSeenAt: ago(MINUTE),
    agentVersion: '2.3.1',
    posture: 'compliant',
    enforcedVersion: null,
    address: null,
    keyExpiresAt: null,
    enrolledAt: null,
    configOutdated: null,
  };
}

/** A gateway as the gateway list answers it (the gateway filter's choices). */
export function makeGateway(named: { id: string; name: string }): Gateway {
  return {
    id: named.id,
    name: named.name,
    kind: 'cybernode',
    region: 'eu-central',
    serverUrl: null,
    serverName: null,
    status: 'online',
    hostname: null,
    version: '1.4.2',
    publicKey: null,
    address: null,
    listenPort: null,
    endpoint: null,
    enrolledAt: null,
    lastSeenAt: null,
    enforcedVersion: null,
    enforcedAt: null,
    currentVersion: null,
    isDrifting: false,
    metrics: null,
    upgrade: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

export const USERS = [makeUser(ANN, 'Ann Archer'), makeUser(BEN, 'Ben Baker')];
export const DEVICES = [makeDevice(LAPTOP, ANN), makeDevice(PHONE, BEN)];
export const GATEWAYS = [makeGateway(FRANKFURT), makeGateway(BERLIN)];

/** A connection event; override what the test is about. */
export function makeConnectionEvent(
  overrides: Partial<ConnectionEvent> & Pick<ConnectionEvent, 'id' | 'action'>,
): ConnectionEvent {
  return {
    at: ago(5 * MINUTE),
    source: 'gateway',
    gateway: FRANKFURT,
    user: ANN,
    device: LAPTOP,
    peer: 'kX3p2T1h6mZQwW8c0sVb4nR9yL5eJ7aD2fG1hK3jM0o=',
    endpoint: '203.0.113.7:51820',
    durationMs: null,
    bytesIn: null,
    bytesOut: null,
    ...overrides,
  };
}

/** Ann's laptop went away after 1 day, 2 hours, 3 minutes and 4 seconds, having moved 1.5 MB in and 2,048 kB out. */
export const LAPTOP_DISCONNECTED = makeConnectionEvent({
  id: `${FRANKFURT.id}.41`,
  action: 'disconnected',
  durationMs: 93_784_000,
  bytesIn: 1_500_000,
  bytesOut: 512,
});
/** Ann's laptop came up. */
export const LAPTOP_CONNECTED = makeConnectionEvent({
  id: `${FRANKFURT.id}.40`,
  action: 'connected',
  at: ago(26 * 60 * MINUTE),
});
/** A tunnel between gateways: no user, no device. */
export const SITE_TUNNEL_UP = makeConnectionEvent({
  id: `${BERLIN.id}.7`,
  action: 'tunnel_up',
  at: ago(30 * MINUTE),
  gateway: BERLIN,
  user: null,
  device: null,
  endpoint: null,
});

/** A device event; override what the test is about. */
export function makeDeviceEvent(
  overrides: Partial<DeviceEvent> & Pick<DeviceEvent, 'id' | 'action'>,
): DeviceEvent {
  return {
    at: ago(5 * MINUTE),
    source: 'gateway',
    gateway: FRANKFURT,
    user: ANN,
    device: LAPTOP,
    detail: null,
    ...overrides,
  };
}

export const LAPTOP_UPGRADED = makeDeviceEvent({
  id: `${FRANKFURT.id}.90`,
  action: 'upgraded',
  detail: 'agent 1.4.2 → 1.5.0',
});
export const PHONE_KEY_ROTATED = makeDeviceEvent({
  id: `${FRANKFURT.id}.91`,
  action: 'key_rotated',
  at: ago(2 * 60 * MINUTE),
  user: BEN,
  device: PHONE,
});
