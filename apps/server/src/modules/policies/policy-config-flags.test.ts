import { PolicyInput } from '@palisade/contracts';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { acmeOwnerCtx, useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { migrate } from '../../db/migrate';
import { users } from '../../db/schema';
import type { Ctx } from '../../lib/context';
import { seedPolicies } from '../../seed/policies';
import { devices } from '../enrolment/enrolment.tables';
import { savePolicyIn } from './policies.service';
import { policyApi, rule } from './policies.test-kit';

// The two configuration flags of spec §6 that gate parts of the policies: `policyGroups` (policy groups, and
// moving devices into one) and `webCategoryEnabled` (rules naming web categories). Neither is turned off while
// the tenant still uses what it gates.

const f = useFixture();
const api = policyApi(f);

let acme: string;
let globex: string;

beforeAll(async () => {
  acme = await f.signIn('admin@acme.test');
  globex = await f.signIn('admin@globex.test');
});

const setFlags = (token: string, tenant: string, configurations: Record<string, boolean>) =>
  api.call('PUT', `/api/tenant/${tenant}/configurations`, token, { configurations });

async function configurationsOf(token: string, tenant: string) {
  const res = await api.call('GET', `/api/tenant/${tenant}/configurations`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().configurations as Record<string, boolean>;
}

async function eventCount(tenantId: string, action: string) {
  const [row] = await queryRows<{ n: number }>(
    f.database.db,
    sql`select count(*)::int as n from admin_events where tenant_id = ${tenantId} and action = ${action}`,
  );
  return row.n;
}

const disabled = (res: { statusCode: number; json(): { code?: string } }) =>
  res.statusCode === 403 && res.json().code === 'feature_disabled';

async function device(tenantId: string, name: string) {
  const [row] = await f.database.db
    .insert(devices)
    .values({ tenantId, name, os: 'windows', userId: null, enrolledVia: 'rmm', tokenHash: `hash-${name}` })
    .returning({ id: devices.id });
  return row.id;
}

describe('policyGroups', () => {
  it('closes the policy-group routes while off and opens them while on', async () => {
    expect((await setFlags(globex, 'globex', { policyGroups: false })).statusCode).toBe(200);
    const body = { name: 'While off' };
    const off = {
      list: await api.call('GET', '/api/policy/group/globex', globex),
      create: await api.call('POST', '/api/policy/group/globex', globex, body),
    };
    expect(disabled(off.list)).toBe(true);
    expect(off.list.json().errcode).toBe(26);
    expect(disabled(off.create)).toBe(true);
    const [stored] = await queryRows<{ n: number }>(
      f.database.db,
      sql`select count(*)::int as n from policy_groups where tenant_id = ${f.globex.id}`,
    );
    expect(stored.n).toBe(0);

    expect((await setFlags(globex, 'globex', { policyGroups: true })).statusCode).toBe(200);
    const created = await api.call('POST', '/api/policy/group/globex', globex, body);
    expect(created.statusCode, created.body).toBe(201);
    const list = await api.call('GET', '/api/policy/group/globex', globex);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((g: { name: string }) => g.name)).toEqual(['While off']);
    const deleted = await api.call('DELETE', '/api/policy/group/globex', globex, {
      ids: [created.json().id],
    });
    expect(deleted.json()).toEqual({ deleted: 1 });
  });

  it('is not turned off while the tenant has policy groups: 409 naming how many, nothing changed', async () => {
    const ids: string[] = [];
    for (const name of ['Kept one', 'Kept two']) {
      const res = await api.call('POST', '/api/policy/group/acme', acme, { name });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const updates = await eventCount(f.acme.id, 'tenant.configurations.update');
    const refused = await setFlags(acme, 'acme', { policyGroups: false, copyAllowed: false });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      errcode: 20,
      code: 'object_in_use',
      details: [
        {
          path: 'body.configurations.policyGroups',
          message: 'configurations.inUse.policyGroups',
          values: { count: '2' },
        },
      ],
    });
    expect(refused.json().message).toContain('2 policy group');
    // Neither flag changed, nothing was logged, and the policy groups still answer.
    expect(await configurationsOf(acme, 'acme')).toMatchObject({ policyGroups: true, copyAllowed: true });
    expect(await eventCount(f.acme.id, 'tenant.configurations.update')).toBe(updates);
    expect((await api.call('GET', '/api/policy/group/acme', acme)).statusCode).toBe(200);

    // Once they are gone the flag turns off.
    expect((await api.call('DELETE', '/api/policy/group/acme', acme, { ids })).json()).toEqual({
      deleted: 2,
    });
    expect((await setFlags(acme, 'acme', { policyGroups: false })).statusCode).toBe(200);
    expect(disabled(await api.call('GET', '/api/policy/group/acme', acme))).toBe(true);
    expect((await setFlags(acme, 'acme', { policyGroups: true })).statusCode).toBe(200);
  });

  it('refuses moving devices into a policy group while off', async () => {
    const laptop = await device(f.globex.id, 'Globex mover');
    const group = await api.call('POST', '/api/policy/group/globex', globex, { name: 'Movers' });
    expect(group.statusCode, group.body).toBe(201);
    const move = () =>
      api.call('POST', '/api/devices/globex/bulk', globex, {
        action: 'move',
        ids: [laptop],
        policyGroupId: group.json().id,
      });
    // With a policy group the flag stays on; the group is deleted first, then the id names none.
    await api.call('DELETE', '/api/policy/group/globex', globex, { ids: [group.json().id] });
    expect((await setFlags(globex, 'globex', { policyGroups: false })).statusCode).toBe(200);
    expect(disabled(await move())).toBe(true);
    // The other bulk actions are not behind the flag.
    const disable = await api.call('POST', '/api/devices/globex/bulk', globex, {
      action: 'disable',
      ids: [laptop],
    });
    expect(disable.statusCode, disable.body).toBe(200);

    expect((await setFlags(globex, 'globex', { policyGroups: true })).statusCode).toBe(200);
    const again = await api.call('POST', '/api/policy/group/globex', globex, { name: 'Movers again' });
    const moved = await api.call('POST', '/api/devices/globex/bulk', globex, {
      action: 'move',
      ids: [laptop],
      policyGroupId: again.json().id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ affected: 1 });
    await api.call('DELETE', '/api/policy/group/globex', globex, { ids: [again.json().id] });
  });

  it('is set on by migration 0046 for every tenant that has policy groups, keeping its other flags', async () => {
    const tenant = async (name: string) =>
      (
        await queryRows<{ id: string }>(
          f.database.db,
          sql`insert into tenants (name, display_name, kind, themevalue, palette)
              values (${name}, ${name}, 'customer', 'light', 'classic') returning id`,
        )
      )[0].id;
    const withGroupNoRow = await tenant('mig-grouped');
    const withGroupAndRow = await tenant('mig-grouped-flags');
    const withoutGroup = await tenant('mig-plain');
    for (const id of [withGroupNoRow, withGroupAndRow]) {
      await f.database.db.execute(
        sql`insert into policy_groups (tenant_id, name) values (${id}, 'Old one'), (${id}, 'Old two')`,
      );
    }
    await f.database.db.execute(
      sql`insert into tenant_features (tenant_id, features, configurations)
          values (${withGroupAndRow}, '{"webFilter": false}'::jsonb, '{"copyAllowed": false}'::jsonb),
                 (${withoutGroup}, '{}'::jsonb, '{"ieDisabled": false}'::jsonb)`,
    );

    // The migration applied as at a start-up (the file itself, through the migrator), twice.
    const client = (
      f.database.db as unknown as {
        $client: { exec?: (t: string) => Promise<unknown>; query: (t: string) => Promise<unknown> };
      }
    ).$client;
    const runScript = (text: string) =>
      f.database.kind === 'pglite' && client.exec ? client.exec(text) : client.query(text);
    for (let run = 0; run < 2; run++) {
      await f.database.db.execute(sql`delete from schema_migrations where name like '0046\_%'`);
      await migrate(runScript, f.database.db);
    }

    const rows = await queryRows<{ tenant_id: string; features: unknown; configurations: unknown }>(
      f.database.db,
      sql`select tenant_id, features, configurations from tenant_features
          where tenant_id in (${withGroupNoRow}, ${withGroupAndRow}, ${withoutGroup})`,
    );
    const byTenant = new Map(rows.map((row) => [row.tenant_id, row]));
    expect(byTenant.get(withGroupNoRow)).toMatchObject({
      features: {},
      configurations: { policyGroups: true },
    });
    expect(byTenant.get(withGroupAndRow)).toMatchObject({
      features: { webFilter: false },
      configurations: { copyAllowed: false, policyGroups: true },
    });
    expect(byTenant.get(withoutGroup)).toMatchObject({ configurations: { ieDisabled: false } });
    expect(byTenant.get(withoutGroup)?.configurations).not.toHaveProperty('policyGroups');
  });
});

describe('webCategoryEnabled', () => {
  const policy = (name: string, categories: string[]) => ({
    type: 'other',
    name,
    rules: [rule({ name: 'Plain', url: 'plain.example' }), rule({ name: 'Betting', url: '', categories })],
  });

  it('refuses rules naming categories while off (400 on the field), and saves them while on', async () => {
    expect((await setFlags(globex, 'globex', { webCategoryEnabled: false })).statusCode).toBe(200);
    const refused = await api.call('POST', '/api/policy/globex', globex, policy('Betting off', ['gambling']));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'body.rules.1.categories', message: 'policy.validation.categoriesDisabled' }],
    });
    // An unknown category says only that categories are off.
    const unknown = await api.call('POST', '/api/policy/globex', globex, policy('Unknown off', ['no-such']));
    expect(unknown.json().details).toEqual([
      { path: 'body.rules.1.categories', message: 'policy.validation.categoriesDisabled' },
    ]);
    const lists = (await api.call('GET', '/api/policy/globex', globex)).json();
    expect(lists.user.map((p: { name: string }) => p.name)).not.toContain('Betting off');
    // Rules without categories save as ever.
    const plain = await api.create(globex, { type: 'other', name: 'Plain only', rules: [rule()] }, 'globex');
    const update = await api.call(
      'PUT',
      `/api/policy/globex/${plain}`,
      globex,
      policy('Plain only', ['gambling']),
    );
    expect(update.statusCode).toBe(400);
    expect(update.json().details[0].path).toBe('body.rules.1.categories');
    expect((await api.get(globex, plain, 'globex')).rules).toHaveLength(1);

    expect((await setFlags(globex, 'globex', { webCategoryEnabled: true })).statusCode).toBe(200);
    const saved = await api.call(
      'PUT',
      `/api/policy/globex/${plain}`,
      globex,
      policy('Plain only', ['gambling']),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const created = await api.call('POST', '/api/policy/globex', globex, policy('Betting on', ['gambling']));
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().policy.rules[1].categories).toEqual(['gambling']);
  });

  it('refuses them on the other paths that save a policy too (a template applied, savePolicyIn)', async () => {
    expect((await setFlags(acme, 'acme', { webCategoryEnabled: false })).statusCode).toBe(200);
    const ctx = await acmeOwnerCtx(f);
    const input = PolicyInput.parse(policy('From a template', ['gambling']));
    await expect(
      f.database.tenantTx(f.acme.id, (tx) => savePolicyIn(tx, ctx, null, input)),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'body.rules.1.categories', message: 'policy.validation.categoriesDisabled' }],
    });
    expect((await setFlags(acme, 'acme', { webCategoryEnabled: true })).statusCode).toBe(200);
    const saved = await f.database.tenantTx(f.acme.id, (tx) => savePolicyIn(tx, ctx, null, input));
    expect((await api.get(acme, saved)).rules[1].categories).toEqual(['gambling']);
  });

  it('is not turned off while rules name categories: 409 with how many rules, nothing changed', async () => {
    const updates = await eventCount(f.globex.id, 'tenant.configurations.update');
    const refused = await setFlags(globex, 'globex', { webCategoryEnabled: false });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'object_in_use',
      details: [
        {
          path: 'body.configurations.webCategoryEnabled',
          message: 'configurations.inUse.webCategoryEnabled',
          values: { count: '2' },
        },
      ],
    });
    expect(await configurationsOf(globex, 'globex')).toMatchObject({ webCategoryEnabled: true });
    expect(await eventCount(f.globex.id, 'tenant.configurations.update')).toBe(updates);

    // Without such rules it turns off.
    const lists = (await api.call('GET', '/api/policy/globex', globex)).json();
    const ids = lists.user.map((p: { id: string }) => p.id);
    expect((await api.call('DELETE', '/api/policy/globex', globex, { ids })).statusCode).toBe(200);
    expect((await setFlags(globex, 'globex', { webCategoryEnabled: false })).statusCode).toBe(200);
    expect((await setFlags(globex, 'globex', { webCategoryEnabled: true })).statusCode).toBe(200);
  });
});

describe('the demo seed', () => {
  it('turns policy groups on for its tenant before it makes their policy groups', async () => {
    expect((await setFlags(globex, 'globex', { policyGroups: false })).statusCode).toBe(200);
    const [owner] = await f.database.db.select().from(users).where(eq(users.username, 'admin@globex.test'));
    const ctx: Ctx = {
      tenant: { id: f.globex.id, name: 'globex', kind: 'customer' },
      actor: {
        id: owner.id,
        username: owner.username,
        role: 'owner',
        usertype: 1,
        tenantId: f.globex.id,
        tenantName: 'globex',
        tenantKind: 'customer',
        sessionHash: '',
      },
      ip: null,
    };
    await seedPolicies(f.database, ctx);
    expect(await configurationsOf(globex, 'globex')).toMatchObject({ policyGroups: true });
    const groups = await api.call('GET', '/api/policy/group/globex', globex);
    expect(groups.json().map((g: { name: string }) => g.name)).toEqual(['Engineering', 'Office staff']);
  });
});
