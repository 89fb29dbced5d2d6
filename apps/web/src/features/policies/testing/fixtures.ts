import {
  type Policy,
  type PolicyLists,
  type PolicySummary,
  policyEndpoints,
  policyObjectEndpoints,
  type RuleRef,
} from '@palisade/contracts';
import { type FakeApi, fakeApi } from '../../../testing/fake-api';

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
    blockPage: true,
    fullTunnel: false,
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

/**
 * The fake API of the policy screens: the editor's look-ups (apps, categories, feeds, locations, tests, policy
 * groups) answer empty lists; the test registers what it is about (a later handler replaces one of these).
 */
export function fakePolicyApi(): FakeApi {
  return fakeApi()
    .on(policyObjectEndpoints.listApps, () => [])
    .on(policyObjectEndpoints.listCategories, () => [])
    .on(policyObjectEndpoints.listFeeds, () => [])
    .on(policyObjectEndpoints.listLocations, () => [])
    .on(policyEndpoints.listPolicyTests, () => [])
    .on(policyEndpoints.listPolicyGroups, () => []);
}
