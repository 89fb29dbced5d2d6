import { randomBytes } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';
import { eventStoreOf } from '../modules/telemetry/telemetry.service';
import { queryRows } from './client';

// Row-level security is the second guard behind the repositories' tenant filter. These tests read the schema
// itself, so a table added by a later migration is checked the day it exists.

const f = useFixture();

/** Tables seeded below with a row for acme and one for globex, besides the fixture's users and groups. */
const SEEDED = [
  'users',
  'groups',
  'user_groups',
  'sessions',
  'transactions',
  'admin_events',
  'api_tokens',
  'embed_links',
  'import_jobs',
  'custom_roles',
  'policies',
  'policy_rules',
  'policy_groups',
  'policy_group_policies',
  'policy_group_groups',
  'policy_group_users',
  'policy_tests',
  'policy_locations',
  'policy_apps',
  'policy_blocked_apps',
  'policy_categories',
  'policy_category_actions',
  'policy_feeds',
  'policy_geo_blocked',
  'enrolment_tokens',
  'devices',
  'device_settings',
  'device_sessions',
  'policy_group_devices',
  'gateways',
  'gateway_bundles',
  'site_configs',
  'private_services',
  'ztna_rules',
  'site_metrics',
  'local_controls',
  'internal_devices',
  'device_mesh',
  'telemetry_events',
  'telemetry_minute',
  'telemetry_hour_top',
  'telemetry_day_top',
  'telemetry_day_sessions',
  'report_schedules',
  'report_recipients',
  'report_mails',
  'access_requests',
  'subscriptions',
  'payment_methods',
  'subscription_events',
  'subscription_usage',
  'payments',
  'subscription_charges',
  'tenant_features',
  'policy_templates',
  'policy_template_links',
  'partner_logos',
];

const table = (name: string) => sql.identifier(name);

/** Every base table of the schema with a `tenant_id` column. */
async function tenantTables(): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    f.database.db,
    sql`select c.table_name as name
        from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'
        order by 1`,
  );
  return rows.map((r) => r.name);
}

/** Rows of a tenant in a table, counted with owner access (no row-level security). */
async function ownerCount(name: string, tenantId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    f.database.db,
    sql`select count(*)::int as n from ${table(name)} where tenant_id = ${tenantId}`,
  );
  return row.n;
}

async function canRole(name: string, privilege: 'SELECT' | 'INSERT' | 'DELETE'): Promise<boolean> {
  const [row] = await queryRows<{ ok: boolean }>(
    f.database.db,
    sql`select has_table_privilege('palisade_app', ${`public.${name}`}, ${privilege}) as ok`,
  );
  return row.ok;
}

/** Gives a tenant one row in every table of SEEDED, with owner access, as the services would write them. */
async function seedTenant(tenantId: string, username: string, groupId: string) {
  const { db } = f.database;
  const one = async (query: SQL) => (await queryRows<{ id: string }>(db, query))[0].id;
  const secret = () => randomBytes(16).toString('hex');
  const userId = await one(
    sql`select id from users where tenant_id = ${tenantId} and username = ${username}`,
  );
  await db.execute(
    sql`insert into user_groups (tenant_id, user_id, group_id) values (${tenantId}, ${userId}, ${groupId})`,
  );
  await db.execute(
    sql`insert into sessions (id_hash, tenant_id, user_id, expires_at)
        values (${secret()}, ${tenantId}, ${userId}, now() + interval '1 hour')`,
  );
  await db.execute(
    sql`insert into transactions (id, tenant_id, user_id, kind, expires_at)
        values (${secret()}, ${tenantId}, ${userId}, 'admin_invite', now() + interval '1 hour')`,
  );
  await db.execute(
    sql`insert into admin_events (tenant_id, actor_name, action, object_type)
        values (${tenantId}, 'rls test', 'test.seed', 'test')`,
  );
  await db.execute(
    sql`insert into api_tokens (tenant_id, user_id, name, token_hash, prefix)
        values (${tenantId}, ${userId}, 'RLS token', ${secret()}, 'pal_rls')`,
  );
  await db.execute(
    sql`insert into embed_links (tenant_id, name, kinds, creator_tenant_id, creator_id, token_hash, prefix, expires_at)
        values (${tenantId}, 'RLS link', '{tenant}', ${tenantId}, ${userId}, ${secret()}, 'emb_rls', now() + interval '1 day')`,
  );
  await db.execute(sql`insert into import_jobs (tenant_id, kind, mode) values (${tenantId}, 'users', 'all')`);
  await db.execute(sql`insert into custom_roles (tenant_id, name) values (${tenantId}, 'RLS role')`);
  const policyId = await one(
    sql`insert into policies (tenant_id, type, name, precedence)
        values (${tenantId}, 'other', 'RLS policy', 1) returning id`,
  );
  await db.execute(
    sql`insert into policy_rules (tenant_id, policy_id, position, name, type, url, action)
        values (${tenantId}, ${policyId}, 1, 'RLS rule', 'dmn', 'example.com', 'block')`,
  );
  const policyGroupId = await one(
    sql`insert into policy_groups (tenant_id, name) values (${tenantId}, 'RLS policy group') returning id`,
  );
  await db.execute(
    sql`insert into policy_group_policies (tenant_id, policy_group_id, policy_id)
        values (${tenantId}, ${policyGroupId}, ${policyId})`,
  );
  await db.execute(
    sql`insert into policy_group_groups (tenant_id, policy_group_id, group_id)
        values (${tenantId}, ${policyGroupId}, ${groupId})`,
  );
  await db.execute(
    sql`insert into policy_group_users (tenant_id, policy_group_id, user_id)
        values (${tenantId}, ${policyGroupId}, ${userId})`,
  );
  await db.execute(
    sql`insert into policy_templates (tenant_id, name, source_tenant, policies, objects, updated_by)
        values (${tenantId}, 'RLS template', 'acme', '[]'::jsonb, '{}'::jsonb, ${username})`,
  );
  await db.execute(
    sql`insert into policy_template_links (tenant_id, template_id, template_policy_key, policy_id, applied_version, applied_hash, applied_by)
        values (${tenantId}, gen_random_uuid(), 'key', ${policyId}, 1, 'hash', ${username})`,
  );
  await db.execute(
    sql`insert into partner_logos (tenant_id, content_type, bytes, sha256)
        values (${tenantId}, 'image/png', '\\x89504e470d0a1a0a'::bytea, 'rls')`,
  );
  await db.execute(
    sql`insert into tenant_features (tenant_id, features, configurations)
        values (${tenantId}, '{"webFilter": false}'::jsonb, '{"copyAllowed": false}'::jsonb)
        on conflict (tenant_id) do update set features = excluded.features, configurations = excluded.configurations`,
  );
  await db.execute(
    sql`insert into policy_tests (tenant_id, name, request, expect)
        values (${tenantId}, 'RLS test', '{"domain":"example.com"}'::jsonb, 'block')`,
  );
  await db.execute(
    sql`insert into policy_locations (tenant_id, name, networks) values (${tenantId}, 'RLS office', '{10.0.0.0/8}')`,
  );
  await db.execute(
    sql`insert into policy_apps (tenant_id, appid, appname, domains)
        values (${tenantId}, 'custom-rls', 'RLS app', '{rls.example}')`,
  );
  await db.execute(
    sql`insert into policy_blocked_apps (tenant_id, appid) values (${tenantId}, 'custom-rls')`,
  );
  await db.execute(
    sql`insert into policy_categories (tenant_id, name, domains) values (${tenantId}, 'RLS category', '{rls.example}')`,
  );
  await db.execute(
    sql`insert into policy_category_actions (tenant_id, category_id, action) values (${tenantId}, 'gambling', 'block')`,
  );
  await db.execute(
    sql`insert into policy_feeds (tenant_id, id, name, kind) values (${tenantId}, 'rls-feed', 'RLS feed', 'upload')`,
  );
  await db.execute(sql`insert into policy_geo_blocked (tenant_id, country) values (${tenantId}, 'AQ')`);
  const enrolmentId = await one(
    sql`insert into enrolment_tokens (tenant_id, kind, name, token_hash, prefix)
        values (${tenantId}, 'rmm', 'RLS key', ${secret()}, 'enr_rls') returning id`,
  );
  const deviceId = await one(
    sql`insert into devices (tenant_id, user_id, name, os, enrolled_via, enrolment_id, token_hash)
        values (${tenantId}, ${userId}, 'RLS laptop', 'linux', 'rmm', ${enrolmentId}, ${secret()}) returning id`,
  );
  await db.execute(
    sql`insert into policy_group_devices (tenant_id, policy_group_id, device_id)
        values (${tenantId}, ${policyGroupId}, ${deviceId})`,
  );
  await db.execute(sql`insert into device_settings (tenant_id, require_approval) values (${tenantId}, true)`);
  await db.execute(
    sql`insert into device_sessions (tenant_id, device_id, started_at, last_seen_at)
        values (${tenantId}, ${deviceId}, now(), now())`,
  );
  const gatewayId = await one(
    sql`insert into gateways (tenant_id, name, kind, region) values (${tenantId}, 'RLS gateway', 'cgw', 'Berlin') returning id`,
  );
  await db.execute(
    sql`insert into gateway_bundles (tenant_id, version, policy_version, artefacts, policy)
        values (${tenantId}, ${secret()}, 1, '{}'::jsonb, '{}'::jsonb)`,
  );
  await db.execute(
    sql`insert into site_configs (tenant_id, gateway_id, config) values (${tenantId}, ${gatewayId}, '{}'::jsonb)`,
  );
  await db.execute(
    sql`insert into private_services (tenant_id, name, gateway_id, address, protocol, ports)
        values (${tenantId}, 'RLS wiki', ${gatewayId}, '10.0.0.2', 'tcp', '443')`,
  );
  await db.execute(
    sql`insert into ztna_rules (tenant_id, name, gateway_id, destination, protocol)
        values (${tenantId}, 'RLS rule', ${gatewayId}, '10.0.0.0/24', 'any')`,
  );
  await db.execute(
    sql`insert into site_metrics (tenant_id, gateway_id, minute, heartbeats)
        values (${tenantId}, ${gatewayId}, date_trunc('minute', now()), 12)`,
  );
  await db.execute(
    sql`insert into local_controls (tenant_id, gateway_id, controls) values (${tenantId}, ${gatewayId}, '{}'::jsonb)`,
  );
  await db.execute(
    sql`insert into internal_devices (tenant_id, gateway_id, mac, ip, source)
        values (${tenantId}, ${gatewayId}, '00:11:32:aa:bb:cc', '10.0.0.3', 'arp')`,
  );
  await db.execute(
    sql`insert into device_mesh (tenant_id, enabled, hub_id) values (${tenantId}, true, ${gatewayId})`,
  );
  await eventStoreOf(f.database).ensureDays([Math.floor(Date.now() / 86_400_000) * 86_400_000]);
  await db.execute(
    sql`insert into telemetry_events (tenant_id, at, gateway_id, event_id, kind, action)
        values (${tenantId}, now(), ${gatewayId}, 'rls-1', 'connection', 'connected')`,
  );
  await db.execute(
    sql`insert into telemetry_minute (tenant_id, minute, kind, events)
        values (${tenantId}, date_trunc('minute', now()), 'connection', 1)`,
  );
  await db.execute(
    sql`insert into telemetry_hour_top (tenant_id, hour, dimension, value, decision, events)
        values (${tenantId}, date_trunc('hour', now()), 'destination', 'rls.example', 'allow', 1)`,
  );
  await db.execute(
    sql`insert into telemetry_day_top (tenant_id, day, dimension, value, decision, events)
        values (${tenantId}, date_trunc('day', now(), 'UTC'), 'destination', 'rls.example', 'allow', 1)`,
  );
  await db.execute(
    sql`insert into telemetry_day_sessions (tenant_id, day, gateway_id, user_id, device_id, sessions, duration_ms, bytes)
        values (${tenantId}, date_trunc('day', now(), 'UTC'), ${gatewayId}, ${gatewayId}, ${gatewayId}, 1, 0, 0)`,
  );
  await db.execute(
    sql`insert into report_schedules (tenant_id, kind, weekday, hour, timezone, recipients)
        values (${tenantId}, 'dsb', 1, 8, 'Europe/Berlin', '{rls@example.com}')`,
  );
  await db.execute(
    sql`insert into report_recipients (tenant_id, email, token_hash, token_expires_at, mailed_at)
        values (${tenantId}, 'rls@example.com', ${secret()}, now() + interval '7 days', now())`,
  );
  await db.execute(
    sql`insert into report_mails (tenant_id, kind, sent_at) values (${tenantId}, 'verification', now())`,
  );
  await db.execute(
    sql`insert into access_requests (tenant_id, reference, block_type, rule_id, host, source_key, reason)
        values (${tenantId}, 'RLS-1', 'domain', 'rule-1', 'example.com', 'rls', 'Needed for work')`,
  );
  await db.execute(
    sql`insert into subscriptions (tenant_id, plan, status, seats) values (${tenantId}, 'trial', 'trial', 10)`,
  );
  await db.execute(
    sql`insert into payment_methods (tenant_id, provider, provider_method_id, brand, last4, exp_month, exp_year)
        values (${tenantId}, 'sandbox', 'pm_sandbox_tok_visa_rls', 'visa', '4242', 12, 2030)`,
  );
  await db.execute(
    sql`insert into subscription_events (tenant_id, kind) values (${tenantId}, 'trial_started')`,
  );
  await db.execute(
    sql`insert into subscription_usage (tenant_id, day, users, devices, seats)
        values (${tenantId}, current_date, 1, 0, 10)`,
  );
  await db.execute(
    sql`insert into payments (tenant_id, number, period_start, period_end, amount, status)
        values (${tenantId}, ${`INV-RLS-${tenantId}`}, now(), now() + interval '1 month', 100, 'pending')`,
  );
  await db.execute(
    sql`insert into subscription_charges (tenant_id, idempotency_key, action, status, payment_id, amount, lines,
          period_start, period_end, change, customer_id, method)
        values (${tenantId}, ${`rls:${tenantId}`}, 'start', 'pending', gen_random_uuid(), 100, '[]', now(),
          now() + interval '1 month', '{}', 'cus_rls', '{}')`,
  );
}

describe('row-level security', () => {
  let tables: string[];

  beforeAll(async () => {
    await seedTenant(f.acme.id, 'admin@acme.test', f.acme.groupIds[0]);
    await seedTenant(f.globex.id, 'admin@globex.test', f.globex.groupIds[0]);
    tables = await tenantTables();
  });

  it('finds every tenant table of the schema', () => {
    expect(tables).toEqual(expect.arrayContaining(SEEDED));
  });

  it('is enabled and forced on every table with a tenant_id column', async () => {
    const unguarded: string[] = [];
    for (const name of tables) {
      const [row] = await queryRows<{ enabled: boolean; forced: boolean }>(
        f.database.db,
        sql`select relrowsecurity as enabled, relforcerowsecurity as forced
            from pg_class where oid = to_regclass(${`public.${name}`})`,
      );
      if (!row.enabled) unguarded.push(`${name}: not enabled`);
      else if (!row.forced) unguarded.push(`${name}: not forced`);
    }
    expect(unguarded).toEqual([]);
  });

  it('gives every tenant table the tenant_isolation policy and no permissive policy that widens it', async () => {
    const policies = await queryRows<{
      table: string;
      name: string;
      permissive: string;
      qual: string | null;
      check: string | null;
    }>(
      f.database.db,
      sql`select tablename as table, policyname as name, permissive, qual, with_check as check
          from pg_policies where schemaname = current_schema()`,
    );
    // The expression as this server prints it, from the policy 0001 created on users.
    const standard = policies.find((p) => p.table === 'users' && p.name === 'tenant_isolation')?.qual;
    expect(standard).toMatch(/app\.tenant_id/);
    const problems: string[] = [];
    for (const name of tables) {
      const own = policies.filter((p) => p.table === name);
      if (!own.some((p) => p.name === 'tenant_isolation' && p.qual === standard)) {
        problems.push(`${name}: no tenant_isolation policy USING ${standard}`);
      }
      // Permissive policies are OR-ed: one with another expression would let other tenants' rows through.
      for (const p of own.filter((p) => p.permissive === 'PERMISSIVE')) {
        if (p.qual !== standard || (p.check !== null && p.check !== standard)) {
          problems.push(`${name}: policy ${p.name} USING ${p.qual} WITH CHECK ${p.check}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps the restricted role out of it', async () => {
    const [role] = await queryRows<{ rolsuper: boolean; rolbypassrls: boolean }>(
      f.database.db,
      sql`select rolsuper, rolbypassrls from pg_roles where rolname = 'palisade_app'`,
    );
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it('hides every globex row from a transaction for acme that forgets its tenant filter', async () => {
    const leaks: string[] = [];
    const checked: string[] = [];
    for (const name of tables) {
      const globexRows = await ownerCount(name, f.globex.id);
      if (globexRows === 0) continue;
      // A table the restricted role cannot read at all cannot leak to it.
      if (!(await canRole(name, 'SELECT'))) continue;
      checked.push(name);
      const acmeRows = await ownerCount(name, f.acme.id);
      const [seen] = await f.database.tenantTx(f.acme.id, (tx) =>
        queryRows<{ total: number; foreign: number }>(
          tx,
          sql`select count(*)::int as total, count(*) filter (where tenant_id <> ${f.acme.id})::int as foreign
              from ${table(name)}`,
        ),
      );
      if (seen.foreign > 0) leaks.push(`${name}: ${seen.foreign} rows of other tenants visible`);
      // Its own rows stay visible: the check above is not passing because the role sees nothing at all.
      if (seen.total - seen.foreign !== acmeRows)
        leaks.push(`${name}: sees ${seen.total} of acme's ${acmeRows}`);
    }
    expect(leaks).toEqual([]);
    expect(checked).toEqual(expect.arrayContaining(SEEDED));
  });

  it('deletes no globex row from a transaction for acme', async () => {
    const deleted: string[] = [];
    for (const name of tables) {
      if ((await ownerCount(name, f.globex.id)) === 0 || !(await canRole(name, 'DELETE'))) continue;
      const [row] = await f.database.tenantTx(f.acme.id, (tx) =>
        queryRows<{ n: number }>(
          tx,
          sql`with gone as (delete from ${table(name)} where tenant_id = ${f.globex.id} returning 1)
              select count(*)::int as n from gone`,
        ),
      );
      if (row.n > 0) deleted.push(`${name}: ${row.n}`);
    }
    expect(deleted).toEqual([]);
    for (const name of SEEDED) expect(await ownerCount(name, f.globex.id), name).toBeGreaterThan(0);
  });

  it('refuses to insert a globex row from a transaction for acme', async () => {
    const accepted: string[] = [];
    const refused: string[] = [];
    for (const name of tables) {
      if ((await ownerCount(name, f.acme.id)) === 0 || !(await canRole(name, 'INSERT'))) continue;
      const columns = await queryRows<{ name: string }>(
        f.database.db,
        sql`select column_name as name from information_schema.columns
            where table_schema = current_schema() and table_name = ${name}
              and is_generated = 'NEVER' and coalesce(identity_generation, '') <> 'ALWAYS'
            order by ordinal_position`,
      );
      // A copy of one of acme's rows, handed to globex: every other constraint holds, so only the policy stops it.
      const target = sql.join(
        columns.map((c) => table(c.name)),
        sql`, `,
      );
      const values = sql.join(
        columns.map((c) => (c.name === 'tenant_id' ? sql`${f.globex.id}::uuid` : table(c.name))),
        sql`, `,
      );
      const before = await ownerCount(name, f.globex.id);
      const error = await f.database
        .tenantTx(f.acme.id, (tx) =>
          tx.execute(
            sql`insert into ${table(name)} (${target}) select ${values} from ${table(name)} limit 1`,
          ),
        )
        .then(
          () => null,
          (e: Error & { cause?: Error }) => e.cause ?? e,
        );
      const after = await ownerCount(name, f.globex.id);
      if (error && /row-level security/.test(error.message) && after === before) refused.push(name);
      else accepted.push(`${name}: ${error ? error.message : `inserted ${after - before}`}`);
    }
    expect(accepted).toEqual([]);
    expect(refused).toEqual(expect.arrayContaining(SEEDED));
  });
});
