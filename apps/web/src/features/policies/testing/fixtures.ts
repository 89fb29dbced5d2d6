import type { Policy, PolicyLists, PolicySummary, RuleRef } from '@palisade/contracts';
import { vi } from 'vitest';
import { jsonResponse } from '../../../testing/render';

export const ALPHA = '11111111-1111-4111-8111-111111111111';
export const BETA = '22222222-2222-4222-8222-222222222222';
export const GAMMA = '33333333-3333-4333-8333-333333333333';
export const QOS = '44444444-4444-4444-8444-444444444444';
export const DEVICE = '55555555-5555-4555-8555-555555555555';

/** A listed policy. */
export function summary(
  overrides: Partial<PolicySummary> & Pick<PolicySummary, 'id' | 'name'>,
): PolicySummary {
  return {
    type: 'other',
    description: '',
    enabled: true,
    precedence: 1,
    ruleCount: 1,
    policyGroups: [],
    updatedAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export const LISTS: PolicyLists = {
  qos: [summary({ id: QOS, name: 'Voice first', type: 'qos' })],
  user: [
    summary({ id: ALPHA, name: 'Alpha', precedence: 1, policyGroups: [{ id: 'g1', name: 'Engineers' }] }),
    summary({ id: BETA, name: 'Beta', precedence: 2, ruleCount: 3 }),
    summary({ id: GAMMA, name: 'Gamma', precedence: 3 }),
  ],
  device: [summary({ id: DEVICE, name: 'Branch routes', type: 'route' })],
};

/** Policy Alpha with a system rule first and two own rules. */
export const ALPHA_POLICY: Policy = {
  ...LISTS.user[0],
  ruleCount: 3,
  rules: [
    {
      id: 'r-sys',
      name: 'ZTNA private apps',
      type: 'ROUTE',
      url: '10.0.0.0/8',
      action: 'allow',
      target: '',
      ports: '',
      categories: [],
      feeds: [],
      locations: [],
      schedule: null,
      enabled: true,
      issysgen: true,
    },
    {
      id: 'r-1',
      name: 'Block gambling',
      type: 'dmn',
      url: 'casino.example',
      action: 'block',
      target: '',
      ports: '',
      categories: [],
      feeds: [],
      locations: [],
      schedule: null,
      enabled: true,
      issysgen: false,
    },
    {
      id: 'r-2',
      name: 'Block downloads',
      type: 'url',
      url: 'files.example/downloads',
      action: 'block',
      target: '',
      ports: '',
      categories: [],
      feeds: [],
      locations: [],
      schedule: null,
      enabled: true,
      issysgen: false,
    },
  ],
};

export const BLOCK_GAMBLING: RuleRef = {
  policyId: ALPHA,
  policyName: 'Alpha',
  ruleId: 'r-1',
  ruleName: 'Block gambling',
  type: 'dmn',
  action: 'block',
  system: false,
};

export interface Sent {
  method: string;
  path: string;
  body: unknown;
}

type Handler = (request: { method: string; path: string; body: unknown; url: URL }) => Response | undefined;

/**
 * A fake API: `handler` answers what the test is about; the editor's look-ups (apps, categories, feeds,
 * locations, tests, policy groups) answer empty lists; anything else is a 404. Every request is recorded.
 */
export function stubApi(handler: Handler) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url);
      const text = await input.clone().text();
      const body = text ? JSON.parse(text) : undefined;
      sent.push({ method: input.method, path: url.pathname, body });
      const answer = handler({ method: input.method, path: url.pathname, body, url });
      if (answer) return answer;
      if (
        input.method === 'GET' &&
        /^\/api\/policy\/(apps|categories|feeds|locations|tests|group)\/acme$/.test(url.pathname)
      ) {
        return jsonResponse([]);
      }
      return jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
    }),
  );
  return sent;
}
