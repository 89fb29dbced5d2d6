import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { policyApi, rule } from './policies.test-kit';

const f = useFixture();
const api = policyApi(f);
const view = (tenant = 'acme', query = '') => `/api/policy/user-view/${tenant}${query}`;

let owner: string;
let helpdesk: string;
let globexOwner: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  helpdesk = await f.signIn('helpdesk@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
});

describe('GET policy/user-view/{tenant}', () => {
  it('answers 401 without a session, 403 without policies:view, 404 for another tenant, 400 for a bad query', async () => {
    expect((await api.call('GET', view())).statusCode).toBe(401);
    expect((await api.call('GET', view(), helpdesk)).statusCode).toBe(403);
    expect((await api.call('GET', view('globex'), owner)).statusCode).toBe(404);
    const bad = await api.call('GET', view('acme', '?limit=0&sort=nope'), owner);
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['query.limit', 'query.sort']);
  });

  it('lists each user with the policies that apply and through what', async () => {
    const group = (await api.call('POST', '/api/groups/acme', owner, { name: 'View testers' })).json().id;
    const inGroup = await api.createUser(owner, 'viewmember', [group]);
    const direct = await api.createUser(owner, 'viewdirect');
    const everyone = await api.create(owner, { type: 'other', name: 'View: for everyone', rules: [rule()] });
    const scoped = await api.create(owner, {
      type: 'other',
      name: 'View: scoped',
      rules: [rule({ url: 'scoped.example' })],
    });
    const created = await api.call('POST', '/api/policy/group/acme', owner, {
      name: 'View bundle',
      policyIds: [scoped],
      groupIds: [group],
      userIds: [direct],
    });
    expect(created.statusCode, created.body).toBe(201);

    const res = await api.call('GET', view('acme', '?q=view&limit=50'), owner);
    expect(res.statusCode, res.body).toBe(200);
    const byId = new Map(res.json().items.map((u: { id: string }) => [u.id, u]));
    const member = byId.get(inGroup) as {
      groups: { name: string }[];
      policies: { id: string; via: unknown[] }[];
    };
    const single = byId.get(direct) as { policies: { id: string; via: unknown[] }[] };
    expect(member.groups.map((g) => g.name)).toEqual(['View testers']);
    expect(member.policies.find((p) => p.id === everyone)?.via).toEqual([
      { kind: 'everyone', policyGroup: null, group: null },
    ]);
    expect(member.policies.find((p) => p.id === scoped)?.via).toEqual([
      { kind: 'group', policyGroup: 'View bundle', group: 'View testers' },
    ]);
    expect(single.policies.find((p) => p.id === scoped)?.via).toEqual([
      { kind: 'user', policyGroup: 'View bundle', group: null },
    ]);

    // Another user of the tenant gets the tenant-wide policy but not the scoped one.
    const other = await api.createUser(owner, 'viewother');
    const again = (await api.call('GET', view('acme', '?q=viewother'), owner)).json();
    const ids = again.items
      .find((u: { id: string }) => u.id === other)
      .policies.map((p: { id: string }) => p.id);
    expect(ids).toContain(everyone);
    expect(ids).not.toContain(scoped);
  });

  it('shows another tenant only its own users', async () => {
    const res = await api.call('GET', view('globex', '?limit=200'), globexOwner);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.every((u: { username: string }) => !u.username.endsWith('@acme.test'))).toBe(
      true,
    );
  });
});
