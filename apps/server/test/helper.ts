import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { desc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { type App, buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import { type Database, openDatabase } from '../src/db/client';
import { groups, mailOutbox, tenants, users } from '../src/db/schema';
import type { Ctx } from '../src/lib/context';
import { hashPassword } from '../src/lib/passwords';
import type { LogSink } from '../src/lib/request-log';

export const PASSWORD = 'correct-horse-battery';

/** Which engine this run uses: PGlite in memory, or a fresh database on the PostgreSQL of TEST_DATABASE_URL. */
export const ENGINE = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `palisade_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  // The run's migrated template (global-setup.ts), else an empty database the app migrates.
  const template = inject('postgresTemplate');
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The run's migrated PGlite dump (global-setup.ts), read once per file: each file's database starts from it. */
let dump: Blob | undefined;
function pgliteStart(): { loadDataDir?: Blob } {
  const file = ENGINE === 'pglite' ? inject('pgliteDump') : '';
  if (!file) return {};
  dump ??= new Blob([readFileSync(file)]);
  return { loadDataDir: dump };
}

export interface Fixture {
  app: App['app'];
  routes: App['routes'];
  database: Database;
  config: Config;
  /** Tenant names and ids: acme (customer of northwind), globex (another customer). */
  acme: { id: string; name: string; groupIds: string[] };
  globex: { id: string; name: string; groupIds: string[] };
  /** Signs in and returns the session token. */
  signIn(username: string, password?: string): Promise<string>;
  /** What the fixture's app hears of committed changes. */
  changes: App['changes'];
  /**
   * Starts another app instance on the same database, as a second server behind a load balancer: on PostgreSQL
   * with its own connection pool and listener; on PGlite sharing the one database object and nothing else.
   * Closed with the fixture.
   */
  startInstance(): Promise<Instance>;
}

/** A further app instance of a fixture (see {@link Fixture.startInstance}). */
export interface Instance {
  app: App['app'];
  database: Database;
  changes: App['changes'];
}

/**
 * A fresh server on a fresh database per test file, with two customer tenants (acme under the partner northwind,
 * globex on its own), both with the `policyGroups` configuration flag on:
 * owners admin@acme.test / admin@globex.test, auditor@acme.test, helpdesk@acme.test, billing@acme.test,
 * partner@northwind.test,
 * enduser@acme.test (usertype 0) — all verified, password PASSWORD. An account without a password: see
 * {@link addAccountWithoutPassword}.
 */
export function useFixture(
  overrides: Partial<Config> = {},
  /** Log through the app's logger (at `overrides.logLevel`) into this sink instead of not at all. */
  options: { logSink?: LogSink } = {},
): Fixture {
  const fixture = {} as Fixture;
  let built: App;
  let dropDb: (() => Promise<void>) | null = null;
  const instances: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    let databaseUrl = 'memory://';
    if (ENGINE === 'postgres') {
      const created = await createPostgresDatabase();
      databaseUrl = created.url;
      dropDb = created.drop;
    }
    const config: Config = {
      ...loadConfig({ DATABASE_URL: databaseUrl, SEED_DEMO: 'false', LOG_LEVEL: 'silent' }, []),
      rateLimit: { max: 10_000, windowMs: 60_000 },
      // PostgreSQL mode requires a key; one per run, like a fresh server.
      secretKey: randomBytes(32).toString('hex'),
      ...overrides,
    };
    const database = await openDatabase({ databaseUrl, dataDir: '', ...pgliteStart() });
    built = await buildApp(config, {
      database,
      ...(options.logSink ? { logSink: options.logSink } : { logger: false }),
    });
    const { db } = database;
    const hash = await hashPassword(PASSWORD);
    const [northwind] = await db
      .insert(tenants)
      .values({
        name: 'northwind',
        displayName: 'Northwind',
        kind: 'partner',
        themevalue: 'light',
        palette: 'corporate',
        primaryColor: '#1c5d99',
      })
      .returning();
    const makeTenant = async (name: string, parentId: string | null) => {
      const [t] = await db
        .insert(tenants)
        .values({
          name,
          displayName: name.toUpperCase(),
          kind: 'customer',
          parentId,
          themevalue: 'light',
          palette: 'classic',
        })
        .returning();
      const g = await db
        .insert(groups)
        .values([
          { tenantId: t.id, name: 'Engineering' },
          { tenantId: t.id, name: 'Sales' },
        ])
        .returning({ id: groups.id });
      // Policy groups are off by default (spec §6); the fixture's tenants use them, as the tenants that had policy
      // groups keep them on (migration 0046). A test about the flag being off turns it off.
      await db.execute(
        sql`insert into tenant_features (tenant_id, configurations) values (${t.id}, '{"policyGroups": true}'::jsonb)`,
      );
      return { id: t.id, name, groupIds: g.map((r) => r.id) };
    };
    fixture.acme = await makeTenant('acme', northwind.id);
    fixture.globex = await makeTenant('globex', null);
    const account = (tenantId: string, username: string, role: string, usertype = 1) => ({
      tenantId,
      username,
      email: username,
      firstname: username.split('@')[0],
      lastname: 'Test',
      role,
      usertype,
      passwordHash: hash,
      isEmailVerified: true,
    });
    await db
      .insert(users)
      .values([
        account(fixture.acme.id, 'admin@acme.test', 'owner'),
        account(fixture.acme.id, 'auditor@acme.test', 'auditor'),
        account(fixture.acme.id, 'helpdesk@acme.test', 'helpdesk'),
        account(fixture.acme.id, 'billing@acme.test', 'billing_admin'),
        account(fixture.globex.id, 'admin@globex.test', 'owner'),
        account(northwind.id, 'partner@northwind.test', 'partner_admin', 2),
        { ...account(fixture.acme.id, 'enduser@acme.test', 'user', 0) },
      ]);
    fixture.app = built.app;
    fixture.routes = built.routes;
    fixture.database = database;
    fixture.config = config;
    fixture.changes = built.changes;
    fixture.startInstance = async () => {
      const own = ENGINE === 'postgres' ? await openDatabase({ databaseUrl, dataDir: '' }) : null;
      const other = await buildApp(config, { database: own ?? database, logger: false });
      instances.push(async () => {
        await other.close();
        await own?.close();
      });
      return { app: other.app, database: own ?? database, changes: other.changes };
    };
    fixture.signIn = async (username, password = PASSWORD) => {
      const res = await built.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { username, password },
      });
      if (res.statusCode !== 200) throw new Error(`sign-in failed for ${username}: ${res.body}`);
      return res.json().sessid as string;
    };
  });
  afterAll(async () => {
    for (const close of instances) await close();
    await built?.close();
    await fixture.database?.close();
    await dropDb?.();
  });
  return fixture;
}

/** The mail the local outbox holds for an address, newest first (what SMTP would have delivered). */
export async function readOutbox(database: Database, to: string) {
  const rows = await database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, to.toLowerCase()))
    .orderBy(desc(mailOutbox.createdAt));
  return rows.map((r) => ({ subject: r.subject, text: r.bodyText }));
}

/** A platform tenant and its administrator `root@platform.test` (password PASSWORD); the fixture has none. */
export async function addPlatformAdmin(database: Database): Promise<string> {
  const [platform] = await database.db
    .insert(tenants)
    .values({
      name: 'platform',
      displayName: 'Platform',
      kind: 'platform',
      themevalue: 'light',
      palette: 'classic',
    })
    .returning();
  await database.db.insert(users).values({
    tenantId: platform.id,
    username: 'root@platform.test',
    email: 'root@platform.test',
    firstname: 'Root',
    lastname: 'Admin',
    usertype: 1,
    role: 'platform_admin',
    passwordHash: await hashPassword(PASSWORD),
    isEmailVerified: true,
  });
  return 'root@platform.test';
}

/**
 * The context a service receives for acme's owner (admin@acme.test), as a request of theirs would give it: for
 * calling seeds and services directly.
 */
export async function acmeOwnerCtx(f: Fixture): Promise<Ctx> {
  const [admin] = await f.database.db.select().from(users).where(eq(users.username, 'admin@acme.test'));
  return {
    tenant: { id: f.acme.id, name: 'acme', kind: 'customer' },
    actor: {
      id: admin.id,
      username: admin.username,
      role: 'owner',
      usertype: 1,
      tenantId: f.acme.id,
      tenantName: 'acme',
      tenantKind: 'customer',
      sessionHash: '',
    },
    ip: null,
  };
}

/**
 * An end user of acme who has no password (invited, never set one): what sign-in must treat like an unknown
 * address. Answers the account's id; its password hash is checked to be empty, so a test of that branch
 * cannot silently test an account with a password.
 */
export async function addAccountWithoutPassword(
  f: Fixture,
  username = 'nopassword@acme.test',
): Promise<string> {
  const [row] = await f.database.db
    .insert(users)
    .values({
      tenantId: f.acme.id,
      username,
      email: username,
      firstname: 'No',
      lastname: 'Password',
      role: 'user',
      usertype: 0,
      passwordHash: null,
      isEmailVerified: true,
    })
    .returning({ id: users.id, passwordHash: users.passwordHash });
  if (row.passwordHash !== null) throw new Error(`${username} has a password`);
  return row.id;
}
