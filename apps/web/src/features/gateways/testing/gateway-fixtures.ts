import type { BundleDiff, BundleSummary, Gateway } from '@palisade/contracts';

/** A gateway as the server presents it; override what the test is about. */
export function makeGateway(overrides: Partial<Gateway> & Pick<Gateway, 'id' | 'name'>): Gateway {
  return {
    kind: 'cybernode',
    region: 'eu-central',
    serverUrl: 'https://fra1.cybernodes.example',
    serverName: 'fra1',
    status: 'online',
    hostname: `${overrides.name.toLowerCase().replace(/\s+/g, '-')}.example`,
    version: '1.4.2',
    publicKey: null,
    address: '100.100.1.1/24',
    listenPort: 51820,
    endpoint: null,
    enrolledAt: '2026-03-01T10:00:00.000Z',
    lastSeenAt: '2026-03-01T10:10:00.000Z',
    enforcedVersion: 'a1b2c3d4e5f60718.0badf00d',
    enforcedAt: '2026-03-01T10:05:00.000Z',
    currentVersion: 'a1b2c3d4e5f60718.0badf00d',
    isDrifting: false,
    metrics: {
      cpuPercent: 37,
      memoryPercent: 62,
      throughputBps: 1_562_500,
      uptimeSeconds: 3 * 86_400 + 4 * 3_600 + 12 * 60,
      activePeers: 1_234,
      connectedUsers: 87,
    },
    upgrade: null,
    createdAt: '2026-03-01T09:00:00.000Z',
    ...overrides,
  };
}

export const FRANKFURT = makeGateway({ id: '11111111-1111-4111-8111-111111111111', name: 'Frankfurt 1' });
/** Enforces an older bundle, not yet for long. */
export const BERLIN_SITE = makeGateway({
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Berlin office',
  kind: 'cgw',
  region: 'Berlin office',
  serverUrl: null,
  serverName: null,
  status: 'offline',
  version: '1.3.0',
  enforcedVersion: '0000000000000000.0badf00d',
  lastSeenAt: '2026-03-01T10:00:00.000Z',
});
/** Behind for too long. */
export const OWN_NODE = makeGateway({
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Own node',
  kind: 'virtual',
  region: 'us-east',
  enforcedVersion: '0000000000000000.0badf00d',
  isDrifting: true,
});
/** Created, never enrolled. */
export const NEW_NODE = makeGateway({
  id: '44444444-4444-4444-8444-444444444444',
  name: 'New node',
  status: 'pending',
  hostname: null,
  version: null,
  address: null,
  listenPort: null,
  enrolledAt: null,
  lastSeenAt: null,
  enforcedVersion: null,
  enforcedAt: null,
  metrics: null,
});

/** Kept bundle versions of the tenant, newest first: the current one, an older one with skipped items. */
export const CURRENT_BUNDLE: BundleSummary = {
  version: 'a1b2c3d4e5f60718',
  policyVersion: 12,
  createdAt: '2026-03-01T10:05:00.000Z',
  pinnedAt: null,
  isCurrent: true,
  skipped: 0,
};
export const OLDER_BUNDLE: BundleSummary = {
  version: '0f1e2d3c4b5a6978',
  policyVersion: 11,
  createdAt: '2026-02-28T16:00:00.000Z',
  pinnedAt: null,
  isCurrent: false,
  skipped: 2,
};
/** Pushed back once, current again no more. */
export const OLDEST_BUNDLE: BundleSummary = {
  version: '00000000000000aa',
  policyVersion: 9,
  createdAt: '2026-02-20T08:00:00.000Z',
  pinnedAt: '2026-02-21T08:00:00.000Z',
  isCurrent: false,
  skipped: 0,
};

/** What pushing {@link OLDER_BUNDLE} back would change. */
export const OLDER_BUNDLE_DIFF: BundleDiff = {
  from: CURRENT_BUNDLE.version,
  to: OLDER_BUNDLE.version,
  artefacts: [
    {
      artefact: 'nftables',
      added: 1,
      removed: 2,
      diff: [
        '===================================================================',
        '--- nftables',
        '+++ nftables',
        '@@ -3,4 +3,3 @@',
        '   chain forward {',
        '-    ip daddr 203.0.113.7 drop',
        '-    ip daddr 198.51.100.0/24 drop',
        '+    ip daddr 192.0.2.1 drop',
        '   }',
        '',
      ].join('\n'),
      isTooLarge: false,
    },
    { artefact: 'rpz', added: 5000, removed: 4200, diff: '', isTooLarge: true },
    { artefact: 'squid', added: 0, removed: 0, diff: '', isTooLarge: false },
  ],
};
