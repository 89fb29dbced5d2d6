import type { Gateway } from '@palisade/contracts';

/**
 * A site gateway (`cgw`) as the gateways list presents it, enrolled and online; override what the test is
 * about. Shared by the features whose screens pick or show a tenant's site gateways.
 */
export function makeSiteGateway(overrides: Partial<Gateway> & Pick<Gateway, 'id' | 'name'>): Gateway {
  return {
    kind: 'cgw',
    region: `${overrides.name} site`,
    serverUrl: null,
    serverName: null,
    status: 'online',
    hostname: null,
    version: '1.4.2',
    publicKey: null,
    address: '100.100.1.2/24',
    listenPort: 51820,
    endpoint: null,
    enrolledAt: '2026-03-01T10:00:00.000Z',
    lastSeenAt: '2026-03-01T10:10:00.000Z',
    enforcedVersion: null,
    enforcedAt: null,
    currentVersion: null,
    isDrifting: false,
    metrics: null,
    upgrade: null,
    createdAt: '2026-03-01T09:00:00.000Z',
    ...overrides,
  };
}
