import type { DeviceRoute, Gateway, Policy, PolicyRule, RouteEntry } from '@palisade/contracts';
import { keysetPage } from '../../../testing/fake-api';

export const BRANCH_POLICY = '11111111-1111-4111-8111-111111111111';
export const LAB_POLICY = '22222222-2222-4222-8222-222222222222';
export const SYSTEM_POLICY = '33333333-3333-4333-8333-333333333333';
export const BRANCH_RULE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
export const LAB_RULE = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
export const BLOCK_RULE = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
export const SYSTEM_RULE = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
export const OTHER_RULE = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
export const NEW_POLICY = '44444444-4444-4444-8444-444444444444';
export const NEW_RULE = 'ffffffff-ffff-4fff-8fff-ffffffffffff';
export const DEVICE_ID = '55555555-5555-4555-8555-555555555555';

/** A ROUTE rule as the routes list presents it; override what the test is about. */
export function makeRoute(
  overrides: Partial<RouteEntry> & Pick<RouteEntry, 'ruleId' | 'ruleName'>,
): RouteEntry {
  const url = overrides.url ?? '10.20.0.0/16;10.30.0.0/16';
  return {
    policyId: BRANCH_POLICY,
    policyName: 'Branch routes',
    type: 'ROUTE',
    action: 'route',
    system: false,
    url,
    target: 'hq-cybernode',
    ports: '',
    networks: url.split(/[;,]/),
    isActive: true,
    gateway: { id: 'g-hq', name: 'HQ Berlin', status: 'online' },
    ...overrides,
  };
}

/** Routes through HQ Berlin (online). */
export const BRANCH = makeRoute({ ruleId: BRANCH_RULE, ruleName: 'Branch offices' });
/** Names a gateway nobody answers to, and is disabled. */
export const LAB = makeRoute({
  ruleId: LAB_RULE,
  ruleName: 'Lab network',
  policyId: LAB_POLICY,
  policyName: 'Lab',
  url: '192.168.50.0/24',
  target: 'lab-gw',
  gateway: null,
  isActive: false,
});
/** A block rule of the same type. */
export const BLOCKED = makeRoute({
  ruleId: BLOCK_RULE,
  ruleName: 'No printers',
  action: 'block',
  url: '10.99.0.0/16',
  target: '',
  gateway: null,
});
/** An allow rule of the same type. */
export const ALLOWED = makeRoute({
  ruleId: '12121212-1212-4212-8212-121212121212',
  ruleName: 'Printers reachable',
  action: 'allow',
  url: '10.98.0.0/16',
  target: '',
  gateway: null,
});
/** A system rule routing through a site gateway that is offline. */
export const SYSTEM = makeRoute({
  ruleId: SYSTEM_RULE,
  ruleName: 'route rule: site Munich',
  policyId: SYSTEM_POLICY,
  policyName: 'Munich site',
  system: true,
  url: '10.40.0.0/16',
  target: 'munich-gw',
  gateway: { id: 'g-mu', name: 'Munich site', status: 'offline' },
});

/** Every ROUTE rule in evaluation order. */
export const ALL_ROUTES = [BLOCKED, BRANCH, SYSTEM, LAB, ALLOWED];

/** A gateway of the tenant; override what the test is about. */
export function makeGateway(overrides: Partial<Gateway> & Pick<Gateway, 'id' | 'name'>): Gateway {
  return {
    kind: 'cybernode',
    region: 'eu-central',
    serverUrl: null,
    serverName: null,
    status: 'online',
    hostname: `${overrides.name.toLowerCase().replace(/\s+/g, '-')}.example`,
    version: '1.4.2',
    publicKey: null,
    address: '100.100.1.1/24',
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

export const HQ = makeGateway({
  id: '66666666-6666-4666-8666-666666666666',
  name: 'HQ Berlin',
  hostname: 'hq-cybernode',
});
export const PARIS = makeGateway({
  id: '77777777-7777-4777-8777-777777777777',
  name: 'Paris',
  status: 'offline',
});
export const PENDING = makeGateway({
  id: '88888888-8888-4888-8888-888888888888',
  name: 'New node',
  status: 'pending',
  hostname: null,
  enrolledAt: null,
});
export const RETIRED = makeGateway({
  id: '99999999-9999-4999-8999-999999999999',
  name: 'Old node',
  status: 'retired',
});

/** The gateways list as the server answers it. */
export const GATEWAYS_PAGE = keysetPage([HQ, PENDING, RETIRED, PARIS]);

/** A stored rule; override what the test is about. */
export function makeRule(overrides: Partial<PolicyRule> & Pick<PolicyRule, 'id' | 'name'>): PolicyRule {
  return {
    type: 'ROUTE',
    url: '10.20.0.0/16;10.30.0.0/16',
    action: 'route',
    target: 'hq-cybernode',
    ports: '',
    categories: [],
    feeds: [],
    locations: [],
    schedule: null,
    enabled: true,
    issysgen: false,
    ...overrides,
  };
}

/** The Branch routes policy: a system rule, an allow rule, the Branch offices route, and another route. */
export const BRANCH_POLICY_FULL: Policy = {
  id: BRANCH_POLICY,
  type: 'route',
  name: 'Branch routes',
  description: 'Offices and partners',
  enabled: true,
  precedence: 1,
  ruleCount: 4,
  policyGroups: [],
  blockPage: true,
  fullTunnel: false,
  updatedAt: '2026-03-01T10:00:00.000Z',
  rules: [
    makeRule({
      id: 'r-sys',
      name: 'ZTNA private apps',
      action: 'allow',
      target: '',
      url: '10.0.0.0/8',
      issysgen: true,
    }),
    makeRule({ id: 'r-allow', name: 'Allow DNS', action: 'allow', target: '', url: '10.1.1.1', ports: '53' }),
    makeRule({ id: BRANCH_RULE, name: 'Branch offices' }),
    makeRule({
      id: OTHER_RULE,
      name: 'Partners',
      url: '172.16.0.0/12',
      target: 'paris.example',
      enabled: false,
    }),
  ],
};

/** How a device gets the Branch offices route: this route carries it. */
export const CARRIED: DeviceRoute = {
  route: BRANCH,
  device: {
    id: DEVICE_ID,
    name: 'Ada’s laptop',
    user: { id: 'u-ada', username: 'ada@acme.example' },
    address: '100.64.0.7/32',
  },
  destination: '10.20.0.1',
  decision: 'allow',
  gatewayTarget: 'hq-cybernode',
  decidedBy: {
    policyId: BRANCH_POLICY,
    policyName: 'Branch routes',
    ruleId: BRANCH_RULE,
    ruleName: 'Branch offices',
    type: 'ROUTE',
    action: 'route',
    system: false,
  },
  isThisRoute: true,
  allowedIps: ['100.100.1.0/24', '10.20.0.0/16', '10.30.0.0/16'],
};
