import type { Feed, GeoControls, LocalControlsView, PolicySummary, WebCategory } from '@palisade/contracts';
import { makeSiteGateway } from '../../../testing/site-gateways';

export const BERLIN_ID = '11111111-1111-4111-8111-111111111111';
export const MUNICH_ID = '22222222-2222-4222-8222-222222222222';
export const OLD_SITE_ID = '33333333-3333-4333-8333-333333333333';

export const STAFF_ID = 'a1a1a1a1-a1a1-4a1a-8a1a-a1a1a1a1a1a1';
export const GUESTS_ID = 'a2a2a2a2-a2a2-4a2a-8a2a-a2a2a2a2a2a2';
export const PRINTERS_ID = 'a3a3a3a3-a3a3-4a3a-8a3a-a3a3a3a3a3a3';
export const VOIP_ID = 'a4a4a4a4-a4a4-4a4a-8a4a-a4a4a4a4a4a4';

export const BERLIN = makeSiteGateway({ id: BERLIN_ID, name: 'Berlin office', region: 'Berlin' });
export const MUNICH = makeSiteGateway({
  id: MUNICH_ID,
  name: 'Munich shop',
  region: 'Munich',
  status: 'offline',
});
/** Retired: takes no bundle, so it is never offered. */
export const OLD_SITE = makeSiteGateway({ id: OLD_SITE_ID, name: 'Old warehouse', status: 'retired' });

/** A policy as the policy lists present it. */
export function makePolicy(
  overrides: Partial<PolicySummary> & Pick<PolicySummary, 'id' | 'name' | 'type'>,
): PolicySummary {
  return {
    description: '',
    enabled: true,
    precedence: 10,
    ruleCount: 2,
    policyGroups: [],
    blockPage: true,
    fullTunnel: false,
    updatedAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export const STAFF = makePolicy({ id: STAFF_ID, name: 'Staff web', type: 'other', precedence: 1 });
export const GUESTS = makePolicy({
  id: GUESTS_ID,
  name: 'Guests',
  type: 'other',
  precedence: 2,
  enabled: false,
});
export const PRINTERS = makePolicy({ id: PRINTERS_ID, name: 'Printers', type: 'route', precedence: 3 });
/** QoS only classifies traffic: never offered as a local policy. */
export const VOIP = makePolicy({ id: VOIP_ID, name: 'VoIP', type: 'qos', precedence: 4 });

export const POLICY_LISTS = { qos: [VOIP], user: [STAFF, GUESTS], device: [PRINTERS] };

/** `count` enabled user policies, `Policy 1`…`Policy n`, with ids of their own. */
export function userPolicies(count: number): PolicySummary[] {
  return Array.from({ length: count }, (_, i) =>
    makePolicy({
      id: `b0b0b0b0-b0b0-4b0b-8b0b-${String(i + 1).padStart(12, '0')}`,
      name: `Policy ${i + 1}`,
      type: 'other',
      precedence: i + 1,
    }),
  );
}

function category(id: string, name: string, cls: WebCategory['class'], domainCount: number): WebCategory {
  return { id, name, class: cls, description: '', domainCount, domains: [], action: 'none', usedBy: 0 };
}

export const CATEGORIES: WebCategory[] = [
  category('malware', 'Malware', 'security', 1200),
  category('gambling', 'Gambling', 'content', 1),
  category('c0c0c0c0-c0c0-4c0c-8c0c-c0c0c0c0c0c0', 'Shop floor blocklist', 'custom', 3),
];

function feed(overrides: Partial<Feed> & Pick<Feed, 'id' | 'name' | 'kind'>): Feed {
  return {
    url: null,
    fileName: null,
    refreshMinutes: null,
    enabled: true,
    ipCount: 0,
    domainCount: 0,
    lastRefreshedAt: null,
    lastError: null,
    usedBy: 0,
    ...overrides,
  };
}

export const BOGONS = feed({ id: 'builtin-bogons', name: 'Bogon networks', kind: 'builtin', ipCount: 14 });
export const ABUSE = feed({
  id: 'd0d0d0d0-d0d0-4d0d-8d0d-d0d0d0d0d0d0',
  name: 'Abuse list',
  kind: 'url',
  url: 'https://feeds.example/abuse.txt',
  refreshMinutes: 60,
  domainCount: 2500,
  ipCount: 1,
  enabled: false,
});
export const FEEDS: Feed[] = [BOGONS, ABUSE];

export const GEO: GeoControls = {
  blocked: [],
  countries: [
    { code: 'DE', name: 'Germany' },
    { code: 'FR', name: 'France' },
    { code: 'KP', name: 'North Korea' },
    { code: 'RU', name: 'Russia' },
  ],
  database: { name: 'Test GeoIP', builtAt: null },
};

/** Berlin's controls: one policy, one category, one country, one feed. */
export const BERLIN_VIEW: LocalControlsView = {
  gatewayId: BERLIN_ID,
  name: 'Berlin office',
  policyIds: [STAFF_ID],
  policies: [{ id: STAFF_ID, name: 'Staff web', type: 'other', enabled: true }],
  categories: ['gambling'],
  countries: ['RU'],
  feeds: ['builtin-bogons'],
  updatedAt: '2026-03-01T10:00:00.000Z',
};

/** Munich has none saved yet. */
export const MUNICH_VIEW: LocalControlsView = {
  gatewayId: MUNICH_ID,
  name: 'Munich shop',
  policyIds: [],
  policies: [],
  categories: [],
  countries: [],
  feeds: [],
  updatedAt: null,
};
