import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addPlatformAdmin, useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const base = '/api/partner/northwind/policy-templates';
const paths = (res: { json(): { details?: { path: string }[] } }) =>
  (res.json().details ?? []).map((d) => d.path).sort();

let partner: string;
let root: string;
let sourcePolicy: string;
let officeId: string;

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: unknown) {
  return f.app.inject({
    method,
    url,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function ok(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  token = partner,
) {
  const res = await call(method, url, token, payload);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

/** The admin events of a tenant for an action: who, and from which partner. */
async function events(tenant: string, actionLike: string) {
  return queryRows<{ action: string; actor_name: string; acting_from: string | null; object_name: string }>(
    f.database.db,
    sql`select e.action, e.actor_name, e.acting_from, e.object_name from admin_events e
        join tenants t on t.id = e.tenant_id where t.name = ${tenant} and e.action like ${actionLike}
        order by e.at`,
  );
}

beforeAll(async () => {
  await addPlatformAdmin(f.database);
  partner = await f.signIn('partner@northwind.test');
  root = await f.signIn('root@platform.test');
  // A second customer of northwind.
  await ok('POST', '/api/partner/northwind/tenants', {
    name: 'initech',
    displayName: 'Initech',
    owner: { email: 'owner@initech.test', firstname: 'Bill', lastname: 'Lumbergh' },
  });
  // The source: a policy of the partner's own tenant using a location and a custom category.
  officeId = (
    await ok('POST', '/api/policy/locations/northwind', { name: 'Head office', networks: ['10.1.0.0/16'] })
  ).id;
  const category = await ok('POST', '/api/policy/categories/northwind', {
    name: 'Timewasters',
    domains: ['games.example'],
  });
  sourcePolicy = (
    await ok('POST', '/api/policy/northwind', {
      type: 'other',
      name: 'Baseline web',
      description: 'Managed by Northwind',
      rules: [
        { name: 'Block social', type: 'dmn', action: 'block', url: 'social.example' },
        {
          name: 'Block timewasters at the office',
          type: 'dmn',
          action: 'block',
          url: '',
          categories: [category.id],
          locations: [officeId],
        },
      ],
    })
  ).policy.id;
});

describe('policy templates: access and input', () => {
  it('answers 401 without a session', async () => {
    expect((await call('GET', base)).statusCode).toBe(401);
    expect((await call('POST', base, undefined, {})).statusCode).toBe(401);
  });

  it('answers 403 to a customer role and 404 for a console the partner does not have', async () => {
    const owner = await f.signIn('admin@acme.test');
    expect((await call('GET', '/api/partner/acme/policy-templates', owner)).statusCode).toBe(403);
    for (const name of ['globex', 'acme', 'platform']) {
      const res = await call('GET', `/api/partner/${name}/policy-templates`, partner);
      expect(res.statusCode, name).toBe(404);
    }
  });

  it('answers 400 with field details for bad input', async () => {
    const res = await call('POST', base, partner, { name: ' ', sourceTenant: 'Bad Name!', policyIds: [] });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['body.name', 'body.policyIds', 'body.sourceTenant']);
    const unknown = await call('POST', base, partner, {
      name: 'X',
      sourceTenant: 'northwind',
      policyIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(paths(unknown)).toEqual(['body.policyIds.0']);
    // A tenant the partner does not manage cannot be the source.
    const foreign = await call('POST', base, partner, {
      name: 'X',
      sourceTenant: 'globex',
      policyIds: [sourcePolicy],
    });
    expect(foreign.statusCode).toBe(400);
    expect(paths(foreign)).toEqual(['body.sourceTenant']);
  });
});

describe('policy templates: create, preview, apply, drift', () => {
  let id: string;

  it('creates a template from policies with the objects they use, by name, and logs it', async () => {
    const res = await call('POST', base, partner, {
      name: 'Baseline',
      sourceTenant: 'northwind',
      policyIds: [sourcePolicy],
    });
    expect(res.statusCode, res.body).toBe(201);
    const template = res.json();
    id = template.id;
    expect(template).toMatchObject({ name: 'Baseline', version: 1, policyCount: 1, objectCount: 2 });
    expect(template.objects.locations).toEqual([
      { name: 'Head office', description: '', networks: ['10.1.0.0/16'] },
    ]);
    expect(template.policies[0].rules[1]).toMatchObject({
      categories: ['Timewasters'],
      locations: ['Head office'],
    });
    const list = await ok('GET', `${base}?limit=10`);
    expect(list).toMatchObject({ total: 1, items: [{ id, name: 'Baseline' }] });
    expect(await events('northwind', 'policy.template.%')).toEqual([
      expect.objectContaining({ action: 'policy.template.create', actor_name: 'partner@northwind.test' }),
    ]);
    // Another console cannot see it.
    expect((await call('GET', `/api/partner/platform/policy-templates/${id}`, root)).statusCode).toBe(404);
    expect((await call('GET', `${base}/${id}`, root)).statusCode).toBe(200);
  });

  it('refuses a tenant the partner does not manage (404) and bad targets (400)', async () => {
    for (const action of ['preview', 'apply']) {
      const res = await call('POST', `${base}/${id}/${action}`, partner, { tenants: ['acme', 'globex'] });
      expect(res.statusCode, action).toBe(404);
      const bad = await call('POST', `${base}/${id}/${action}`, partner, { tenants: [] });
      expect(bad.statusCode).toBe(400);
      expect(paths(bad)).toEqual(['body.tenants']);
    }
    expect(await events('acme', 'policy.template.%')).toEqual([]);
  });

  it('previews the creates, applies to two tenants and logs in each with the partner acting', async () => {
    const preview = await ok('POST', `${base}/${id}/preview`, { tenants: ['acme', 'initech'] });
    expect(preview.tenants).toHaveLength(2);
    for (const t of preview.tenants) {
      expect(t).toMatchObject({
        policies: [{ name: 'Baseline web', change: 'create' }],
        objects: [
          { kind: 'location', name: 'Head office', change: 'create' },
          { kind: 'category', name: 'Timewasters', change: 'create' },
        ],
        failingTests: [],
        error: null,
      });
      expect(t.policies[0].diff).toHaveLength(2);
    }
    // The preview saved nothing.
    expect((await ok('GET', '/api/policy/acme')).user).toEqual([]);

    const applied = await ok('POST', `${base}/${id}/apply`, { tenants: ['acme', 'initech'] });
    expect(applied.tenants).toEqual([
      expect.objectContaining({ tenant: 'acme', result: 'applied', created: 1 }),
      expect.objectContaining({ tenant: 'initech', result: 'applied', created: 1 }),
    ]);
    for (const tenant of ['acme', 'initech']) {
      const lists = await ok('GET', `/api/policy/${tenant}`);
      expect(lists.user.map((p: { name: string }) => p.name)).toEqual(['Baseline web']);
      const policy = await ok('GET', `/api/policy/${tenant}/${lists.user[0].id}`);
      const locations = await ok('GET', `/api/policy/locations/${tenant}`);
      expect(locations.map((l: { name: string }) => l.name)).toEqual(['Head office']);
      expect(policy.rules[1].locations).toEqual([locations[0].id]);
      const logged = await events(tenant, 'policy.%');
      // One transaction: one time for all, so in no particular order.
      expect(logged.map((e) => e.action).sort()).toEqual([
        'policy.category.create',
        'policy.create',
        'policy.location.create',
        'policy.template.apply',
      ]);
      for (const e of logged) {
        expect(e).toMatchObject({ actor_name: 'partner@northwind.test', acting_from: 'northwind' });
      }
    }
    expect((await events('northwind', 'policy.template.apply')).length).toBe(1);

    const again = await ok('POST', `${base}/${id}/preview`, { tenants: ['acme'] });
    expect(again.tenants[0]).toMatchObject({
      policies: [{ name: 'Baseline web', change: 'unchanged', diff: [] }],
      objects: [
        { kind: 'location', change: 'unchanged' },
        { kind: 'category', change: 'unchanged' },
      ],
    });
  });

  it('shows each managed tenant in sync, never applied, then drifted after a local edit, and in sync again', async () => {
    const status = await ok('GET', `${base}/${id}/status`);
    expect(status.items.map((s: { tenant: string; state: string }) => [s.tenant, s.state])).toEqual([
      ['acme', 'inSync'],
      ['initech', 'inSync'],
    ]);
    // A local edit in acme (its owner).
    const owner = await f.signIn('admin@acme.test');
    const acmePolicy = (await ok('GET', '/api/policy/acme', undefined, owner)).user[0];
    const full = await ok('GET', `/api/policy/acme/${acmePolicy.id}`, undefined, owner);
    await ok(
      'PUT',
      `/api/policy/acme/${acmePolicy.id}`,
      {
        type: 'other',
        name: full.name,
        description: full.description,
        rules: [{ name: 'Block social', type: 'dmn', action: 'block', url: 'social.example;chat.example' }],
      },
      owner,
    );
    const drifted = await ok('GET', `${base}/${id}/status`);
    expect(drifted.items[0]).toMatchObject({
      tenant: 'acme',
      state: 'drifted',
      appliedVersion: 1,
      drifted: [{ policy: 'Baseline web' }],
    });
    expect(drifted.items[0].drifted[0].changedAt).toEqual(expect.any(String));
    expect(drifted.items[1]).toMatchObject({ tenant: 'initech', state: 'inSync' });

    const preview = await ok('POST', `${base}/${id}/preview`, { tenants: ['acme'] });
    expect(preview.tenants[0].policies[0].change).toBe('update');
    expect(preview.tenants[0].policies[0].diff).toEqual(
      expect.arrayContaining([
        { path: 'rules.Block social.url', before: 'social.example, chat.example', after: 'social.example' },
      ]),
    );
    const reapplied = await ok('POST', `${base}/${id}/apply`, { tenants: ['acme'] });
    expect(reapplied.tenants[0]).toMatchObject({ result: 'applied', updated: 1 });
    const after = await ok('GET', `${base}/${id}/status`);
    expect(after.items[0]).toMatchObject({ tenant: 'acme', state: 'inSync', drifted: [] });
  });

  it('marks tenants outdated after the template is updated (its version rises)', async () => {
    const updated = await ok('PUT', `${base}/${id}`, {
      name: 'Baseline',
      description: 'v2',
      sourceTenant: 'northwind',
      policyIds: [sourcePolicy],
    });
    expect(updated.version).toBe(2);
    const status = await ok('GET', `${base}/${id}/status`);
    expect(status.items.map((s: { state: string }) => s.state)).toEqual(['outdated', 'outdated']);
  });

  it('refuses the tenant whose pinned test it would break and applies to the others', async () => {
    // Initech's copy goes away locally; a test there pins social.example as allowed.
    const initechPolicy = (await ok('GET', '/api/policy/initech')).user[0];
    await ok('DELETE', '/api/policy/initech', { ids: [initechPolicy.id] });
    await ok('POST', '/api/policy/tests/initech', {
      name: 'Social stays open',
      request: { destination: 'social.example' },
      expect: 'allow',
    });
    const status = await ok('GET', `${base}/${id}/status`);
    expect(status.items[1]).toMatchObject({
      tenant: 'initech',
      state: 'drifted',
      drifted: [{ changedAt: null }],
    });

    const preview = await ok('POST', `${base}/${id}/preview`, { tenants: ['acme', 'initech'] });
    expect(preview.tenants[0].failingTests).toEqual([]);
    expect(preview.tenants[1].failingTests).toEqual([
      expect.objectContaining({ name: 'Social stays open', expect: 'allow', actual: 'block' }),
    ]);
    const applied = await ok('POST', `${base}/${id}/apply`, { tenants: ['acme', 'initech'] });
    expect(applied.tenants[0]).toMatchObject({ tenant: 'acme', result: 'applied' });
    expect(applied.tenants[1]).toMatchObject({
      tenant: 'initech',
      result: 'refused',
      failingTests: [{ name: 'Social stays open' }],
    });
    expect((await ok('GET', '/api/policy/initech')).user).toEqual([]);
    const after = await ok('GET', `${base}/${id}/status`);
    expect(after.items.map((s: { state: string }) => s.state)).toEqual(['inSync', 'drifted']);
  });

  it('deletes a template (403 for a customer role, 404 once gone) and logs it', async () => {
    const owner = await f.signIn('admin@acme.test');
    expect((await call('DELETE', `${base}/${id}`, owner)).statusCode).toBe(404);
    expect(await ok('DELETE', `${base}/${id}`)).toEqual({ deleted: 1 });
    expect((await call('GET', `${base}/${id}`, partner)).statusCode).toBe(404);
    expect((await events('northwind', 'policy.template.delete')).length).toBe(1);
  });
});
