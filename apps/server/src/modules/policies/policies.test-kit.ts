import { expect } from 'vitest';
import type { Fixture } from '../../../test/helper';

/** Helpers shared by the policies module's test files. */
export const auth = (token: string) => ({ 'x-auth-token': token });
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A rule as the editor sends it, with overrides. */
export const rule = (over: Record<string, unknown> = {}) => ({
  name: 'Rule',
  type: 'dmn',
  action: 'block',
  url: 'example.com',
  ...over,
});

export function policyApi(f: Fixture) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: unknown) =>
    f.app.inject({
      method,
      url,
      headers: token ? auth(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    call,
    /** Creates a policy and answers its id (the create must succeed). */
    async create(token: string, body: Record<string, unknown>, tenant = 'acme'): Promise<string> {
      const res = await call('POST', `/api/policy/${tenant}`, token, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().policy.id;
    },
    async get(token: string, id: string, tenant = 'acme') {
      const res = await call('GET', `/api/policy/${tenant}/${id}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
    async simulate(token: string, body: Record<string, unknown>, tenant = 'acme') {
      const res = await call('POST', `/api/policy/simulate/${tenant}`, token, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
    async createTest(token: string, body: Record<string, unknown>, tenant = 'acme') {
      const res = await call('POST', `/api/policy/tests/${tenant}`, token, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    },
    /** Creates an end user of the tenant (optionally in groups) and answers the id. */
    async createUser(token: string, name: string, groups: string[] = [], tenant = 'acme'): Promise<string> {
      const res = await call('POST', `/api/subscriber/user/${tenant}`, token, {
        username: `${name}@${tenant}.test`,
        firstname: name,
        lastname: 'Member',
        groups,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id;
    },
  };
}

/** What {@link pinMembershipScenario} sets up. */
export interface MembershipScenario {
  owner: string;
  /** A group a policy group assigns "block social.example" to. */
  guarded: string;
  /** In `guarded`: pinned as blocked. */
  inside: string;
  /** In no group: pinned as allowed. */
  outside: string;
  /** In no group, in no test. */
  free: string;
  blockedTest: string;
  allowedTest: string;
}

/**
 * Pins decisions that memberships decide, for the tests of the membership guard (users and groups areas): a group
 * whose policy blocks social.example, a member pinned as blocked and a user outside pinned as allowed.
 */
export async function pinMembershipScenario(f: Fixture): Promise<MembershipScenario> {
  const api = policyApi(f);
  const owner = await f.signIn('admin@acme.test');
  const group = await api.call('POST', '/api/groups/acme', owner, { name: 'Guarded' });
  expect(group.statusCode, group.body).toBe(201);
  const guarded: string = group.json().id;
  const policy = await api.create(owner, {
    type: 'other',
    name: 'Block social',
    rules: [rule({ name: 'Social', url: 'social.example' })],
  });
  const bundle = await api.call('POST', '/api/policy/group/acme', owner, {
    name: 'Social for Guarded',
    policyIds: [policy],
    groupIds: [guarded],
  });
  expect(bundle.statusCode, bundle.body).toBe(201);
  const inside = await api.createUser(owner, 'pinned-inside', [guarded]);
  const outside = await api.createUser(owner, 'pinned-outside');
  const free = await api.createUser(owner, 'unpinned');
  const blocked = await api.createTest(owner, {
    name: 'Inside is blocked',
    request: { userId: inside, destination: 'https://social.example/' },
    expect: 'block',
  });
  const allowed = await api.createTest(owner, {
    name: 'Outside is allowed',
    request: { userId: outside, destination: 'https://social.example/' },
    expect: 'allow',
  });
  expect([blocked.passing, allowed.passing]).toEqual([true, true]);
  return { owner, guarded, inside, outside, free, blockedTest: blocked.id, allowedTest: allowed.id };
}
