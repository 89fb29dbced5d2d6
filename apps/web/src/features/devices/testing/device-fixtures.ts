import type { DeviceDetail, DeviceListItem, UserDevices } from '@palisade/contracts';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** An ISO time `ms` before now. */
export const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
/** An ISO time `ms` after now. */
export const ahead = (ms: number) => new Date(Date.now() + ms).toISOString();

export const ANN_ID = '11111111-1111-4111-8111-111111111111';

/** An end user as the users-and-devices list shows them (the owner picker's answer). */
export const ANN_USER: UserDevices = {
  id: ANN_ID,
  username: 'ann@acme.example',
  fullname: 'Ann Archer',
  connstatus: 'connected',
  state: 'enrolled',
  link: null,
  devices: [],
};

/** A row of the device list; override what the test is about. */
export function makeDeviceItem(overrides: Partial<DeviceListItem> & Pick<DeviceListItem, 'id' | 'name'>) {
  const item: DeviceListItem = {
    kind: 'endpoint',
    os: 'windows',
    userId: ANN_ID,
    username: 'ann@acme.example',
    status: 'online',
    state: 'active',
    lastSeenAt: ago(2 * MINUTE),
    agentVersion: '2.3.1',
    posture: 'compliant',
    enforcedVersion: 'p-42',
    address: '100.64.0.7',
    keyExpiresAt: ahead(20 * DAY + MINUTE),
    enrolledAt: ago(10 * DAY),
    configOutdated: null,
    ...overrides,
  };
  return item;
}

/** A device page's answer: the row and its extras (none by default). */
export function makeDeviceDetail(item: DeviceListItem, overrides: Partial<DeviceDetail> = {}): DeviceDetail {
  return {
    ...item,
    enrolledVia: item.kind === 'site' ? null : 'link',
    postureChecks: {},
    sessions: [],
    wireguard: null,
    policyGroups: [],
    policies: [],
    configDownloadedAt: null,
    fullTunnel: false,
    ...overrides,
  };
}

/** Ann's laptop: online, active, compliant. */
export const LAPTOP = makeDeviceItem({ id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'Ann’s laptop' });

/** A phone waiting for approval, never seen, without posture or key. */
export const PHONE = makeDeviceItem({
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  name: 'Ann’s phone',
  os: 'android',
  status: 'never',
  state: 'pending',
  lastSeenAt: null,
  agentVersion: null,
  posture: 'unknown',
  enforcedVersion: null,
  address: null,
  keyExpiresAt: null,
});

/** A site gateway in the inventory: kind `site`, its gateway kind as OS type, no owner. */
export const BERLIN_SITE = makeDeviceItem({
  id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
  name: 'Berlin office',
  kind: 'site',
  os: 'cgw',
  userId: null,
  username: null,
  status: 'offline',
  lastSeenAt: ago(3 * 60 * MINUTE),
  agentVersion: '1.4.2',
  posture: 'unknown',
  enforcedVersion: 'a1b2c3d4e5f60718.0badf00d',
  address: '100.100.2.1',
  keyExpiresAt: null,
});
