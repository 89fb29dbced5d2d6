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
