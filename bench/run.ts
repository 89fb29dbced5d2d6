/**
 * npm run bench — prints figures, asserts nothing:
 *  - list APIs p50/p95 at 1 000 and 100 000 end users (with 10 000 groups and 100 000 admin events at the
 *    large size), on PGlite and (when reachable) PostgreSQL, over real HTTP: users (first page, a deep page by
 *    offset and by cursor, the next page as the web asks for it, a search, a sort by full name), groups, the
 *    members of a large group, the admin event log, the device inventory (one device per user: first page,
 *    orders, filters, a search, a deep page by cursor); and the users list's first page under 50 connections at
 *    once (autocannon, requests per second and latency);
 *  - the sign-in page's Largest Contentful Paint at 5 Mbit/s and 70 ms latency (bench/web-load.ts);
 *  - gzip size of the initial JS/CSS of the built web app, and what the sign-in page loads as served;
 *  - the policy engine against tsurlfilter (bench/policy-engine.ts);
 *  - gateways: save-to-enforced latency with 100 long-polling gateways, bundle compile time and size at 10 000
 *    and 100 000 rules, heartbeats per second (bench/gateways.ts).
 *  - telemetry: ingest events per second and acknowledgement latency (PostgreSQL, PGlite), dashboard panels over
 *    10 000 000 events of 30 days (bench/telemetry.ts).
 *  - partners: the partner console's tenant list at 10 000 tenants (PGlite, PostgreSQL; bench/partners.ts).
 *  - longpolls: the users list and a policy save with 0 and 500 gateways waiting on a bundle long-poll (PGlite,
 *    PostgreSQL; bench/long-polls.ts).
 * BENCH_ONLY=policy,api,web,gateways,longpolls,telemetry,partners picks parts; unset runs everything.
 * BENCH_SIZES (default 1000,100000), BENCH_SAMPLES (200), BENCH_LOAD_SECONDS (10), BENCH_LCP_RUNS (5).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase, queryRows } from '../apps/server/src/db/client';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { measure, PG_ADMIN, SAMPLES } from './common';
import { benchGateways } from './gateways';
import { benchLongPolls } from './long-polls';
import { benchPartners } from './partners';
import { benchPolicyEngine } from './policy-engine';
import { benchTelemetry } from './telemetry';
import { benchSignInLcp } from './web-load';

const ROOT = resolve(import.meta.dirname, '..');
const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const LOAD_CONNECTIONS = 50;

/**
 * Requests per second and latency with 50 connections open at once, from autocannon in a process of its own
 * (in this one it would share the event loop with the server it measures).
 */
function load(url: string, token: string) {
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const args = [
    cli,
    '-j',
    '-c',
    String(LOAD_CONNECTIONS),
    '-d',
    String(LOAD_SECONDS),
    '-H',
    `x-auth-token=${token}`,
    url,
  ];
  return new Promise<{ rps: number; p50: number; p99: number; failed: number }>((done, fail) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) return fail(error);
      const r = JSON.parse(stdout) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
        timeouts: number;
      };
      done({
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        failed: r.non2xx + r.errors + r.timeouts,
      });
    });
  });
}

async function pgReachable() {
  const c = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function benchEngine(engine: 'pglite' | 'postgres', size: number) {
  let databaseUrl = 'memory://';
  let drop = async () => {};
  if (engine === 'postgres') {
    const name = `palisade_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const database = await openDatabase({ databaseUrl, dataDir: '' });
  const config = {
    ...loadConfig(
      // PostgreSQL needs the key that seals secrets at rest; a throw-away one does for a bench database.
      { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SECRET_KEY: randomBytes(32).toString('hex') },
      [],
    ),
    rateLimit: { max: 1_000_000, windowMs: 60_000 },
  };
  const { app, close } = await buildApp(config, { database, logger: false });
  const seedStart = performance.now();
  const { db } = database;
  const hash = await hashPassword('bench-password-1');
  await db.execute(sql`insert into tenants (name, display_name, kind) values ('bench', 'Bench', 'customer')`);
  await db.execute(sql`insert into users (tenant_id, username, email, firstname, lastname, usertype, role, password_hash, is_email_verified)
    select id, 'admin@bench.example', 'admin@bench.example', 'Bench', 'Admin', 1, 'owner', ${hash}, true from tenants where name = 'bench'`);
  const groupCount = size >= 100_000 ? 10_000 : 20;
  await db.execute(
    sql`insert into groups (tenant_id, name) select id, 'Group ' || g from tenants, generate_series(1, ${groupCount}) g where name = 'bench'`,
  );
  await db.execute(sql`insert into users (tenant_id, username, email, firstname, lastname, connstatus, isprvaccess)
    select t.id, 'user' || i || '@bench.example', 'user' || i || '@bench.example',
      (array['Anna','Ben','Clara','David','Elena','Felix','Greta','Hugo'])[1 + i % 8],
      'Surname' || (i % 997), (array['connected','disconnected','never'])[1 + i % 3], i % 2 = 0
    from tenants t, generate_series(1, ${size}) i where t.name = 'bench'`);
  // Every user in one group; the first group holds a tenth of everyone (a large group to page through).
  await db.execute(sql`insert into user_groups (tenant_id, user_id, group_id)
    select u.tenant_id, u.id, g.id
    from (select tenant_id, id, row_number() over (order by id) as n from users where usertype = 0) u
    join (select tenant_id, id, row_number() over (order by name) as n from groups) g
      on g.tenant_id = u.tenant_id and g.n = case when u.n % 10 = 0 then 1 else 1 + u.n % ${groupCount} end`);
  await db.execute(sql`insert into admin_events (tenant_id, actor_name, action, object_type, object_name, at, after)
    select t.id, 'admin@bench.example', (array['user.create','user.update','group.update','user.delete'])[1 + i % 4],
      'user', 'user' || i || '@bench.example', now() - (i || ' seconds')::interval, jsonb_build_object('firstname', 'Anna')
    from tenants t, generate_series(1, ${size}) i where t.name = 'bench'`);
  // One device per user (every OS type, a third never seen, a tenth online, a fiftieth waiting for approval).
  await db.execute(sql`insert into devices (tenant_id, user_id, name, os, enrolled_via, token_hash, state, last_seen_at,
      agent_version, posture)
    select u.tenant_id, u.id, 'Device ' || n,
      (array['windows','none','linux','ios','android','mac','chrome'])[1 + n % 7], 'rmm', md5('device' || n),
      case when n % 50 = 0 then 'pending' else 'active' end,
      case when n % 3 = 0 then null when n % 10 = 1 then now() else now() - (n || ' seconds')::interval end,
      '2.' || (n % 5) || '.0', case when n % 4 = 0 then '{"firewall": false}'::jsonb else '{"firewall": true}'::jsonb end
    from (select tenant_id, id, row_number() over (order by id) as n from users where usertype = 0) u`);
  await db.execute(sql`analyze`);
  const seedMs = performance.now() - seedStart;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const signIn = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin@bench.example', password: 'bench-password-1' }),
  });
  const { sessid } = (await signIn.json()) as { sessid: string };
  const list = `${base}/api/subscriber/user/bench`;
  const [bigGroup] = await queryRows<{ id: string }>(db, sql`select id from groups order by name limit 1`);
  const half = Math.floor(size / 2);
  const cases: Record<string, string> = {
    'first page (25)': `${list}?limit=25`,
    [`deep page (offset ${half})`]: `${list}?limit=25&offset=${half}`,
    'search "anna"': `${list}?limit=25&q=anna`,
    'sort full name desc': `${list}?limit=25&sort=fullname&order=desc`,
    [`groups (${groupCount}), first page`]: `${base}/api/groups/bench?limit=25`,
    'groups, search "99"': `${base}/api/groups/bench?limit=25&q=99`,
    'members of the largest group': `${base}/api/groups/bench/${bigGroup.id}/members?limit=25`,
    [`event log (${size}), first page`]: `${base}/api/events/admin/bench?limit=25`,
    'event log, action filter': `${base}/api/events/admin/bench?limit=25&action=group.update`,
    [`devices (${size}), first page`]: `${base}/api/devices/bench?limit=25`,
    'devices, last seen desc': `${base}/api/devices/bench?limit=25&sort=lastSeenAt&order=desc`,
    'devices, online': `${base}/api/devices/bench?limit=25&status=online`,
    'devices, OS mac by name': `${base}/api/devices/bench?limit=25&os=mac`,
    'devices, waiting for approval': `${base}/api/devices/bench?limit=25&state=pending`,
    'devices, search "device 4242"': `${base}/api/devices/bench?limit=25&q=device%204242`,
  };
  // Page turns as the web makes them, where the server offers keyset paging: after the previous page's
  // cursor, without a count (the client has the total).
  const cursorAfter = async (url: string) => {
    const res = await fetch(url, { headers: { 'x-auth-token': sessid } });
    return ((await res.json()) as { nextCursor?: string | null }).nextCursor ?? null;
  };
  const next = await cursorAfter(`${list}?limit=25`);
  const deep = await cursorAfter(`${list}?limit=25&offset=${half - 25}`);
  if (next) cases['next page (cursor, no count)'] = `${list}?limit=25&withTotal=false&cursor=${next}`;
  if (deep)
    cases[`deep page (cursor after ${half}, no count)`] = `${list}?limit=25&withTotal=false&cursor=${deep}`;
  const devicesNext = await cursorAfter(`${base}/api/devices/bench?limit=25&offset=${half - 25}`);
  if (devicesNext)
    cases[`devices, deep page (cursor after ${half}, no count)`] =
      `${base}/api/devices/bench?limit=25&withTotal=false&cursor=${devicesNext}`;
  const rows: Array<Record<string, string | number>> = [];
  for (const [name, url] of Object.entries(cases)) {
    const r = await measure(url, sessid);
    rows.push({ engine, users: size, case: name, 'p50 ms': r.p50.toFixed(1), 'p95 ms': r.p95.toFixed(1) });
  }
  const loaded = await load(`${list}?limit=25`, sessid);
  const loadRow = {
    engine,
    users: size,
    'req/s': Math.round(loaded.rps),
    'p50 ms': loaded.p50,
    'p99 ms': loaded.p99,
    failed: loaded.failed,
  };
  await close();
  await database.close();
  await drop();
  return { rows, seedMs, loadRow };
}

/**
 * The initial payload: the JS and CSS index.html names, gzip -9 (the figure tracked since the first bench); and
 * what the sign-in page fetches before it can paint, as served: those files plus the sign-in screen's (from
 * the build's route-preloads.json), brotli where the build wrote a .br copy.
 */
function bundleSize() {
  const dist = join(ROOT, 'apps/web/dist');
  const indexFile = join(dist, 'index.html');
  if (!existsSync(indexFile)) return null;
  const html = readFileSync(indexFile, 'utf8');
  const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  let js = 0;
  let css = 0;
  for (const asset of assets) {
    const size = gzipSync(readFileSync(join(dist, asset)), { level: 9 }).length;
    if (asset.endsWith('.js')) js += size;
    else css += size;
  }
  const preloadsFile = join(dist, 'route-preloads.json');
  const signInFiles = existsSync(preloadsFile)
    ? ((JSON.parse(readFileSync(preloadsFile, 'utf8')) as { routes: Record<string, string[]> }).routes[
        '/sign-in'
      ] ?? [])
    : [];
  const asServed = (file: string) =>
    existsSync(join(dist, `${file}.br`))
      ? readFileSync(join(dist, `${file}.br`)).length
      : readFileSync(join(dist, file)).length;
  const signIn = [...new Set([...assets, ...signInFiles])];
  const signInServed = signIn.reduce((sum, file) => sum + asServed(file), 0);
  return { js, css, files: assets.length, signInServed, signInFiles: signIn.length };
}

/** Serves the built app from a server on an empty in-memory database and measures the sign-in page's LCP. */
async function benchWeb() {
  if (!existsSync(join(ROOT, 'apps/web/dist/index.html'))) {
    console.info('Web app not built (npm run build): sign-in LCP SKIPPED.');
    return;
  }
  const browserPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(browserPath)) {
    console.info(`No Chromium at ${browserPath}: sign-in LCP SKIPPED.`);
    return;
  }
  const database = await openDatabase({ databaseUrl: 'memory://', dataDir: '' });
  const config = loadConfig({ DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' }, []);
  const { app, close } = await buildApp(config, { database, logger: false });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const rows = await benchSignInLcp(
      `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    );
    console.info('\nSign-in page at 5 Mbit/s and 70 ms latency (Chromium, network throttled over CDP):');
    console.table(rows);
  } finally {
    await close();
    await database.close();
  }
}

const BENCH_ONLY = process.env.BENCH_ONLY;
if (!BENCH_ONLY || BENCH_ONLY.includes('policy')) await benchPolicyEngine();
const runApi = !BENCH_ONLY || BENCH_ONLY.includes('api');

const engines: Array<'pglite' | 'postgres'> = runApi ? ['pglite'] : [];
if (!runApi) console.info('BENCH_ONLY excludes api: list API figures SKIPPED.');
else if (await pgReachable()) engines.push('postgres');
else console.info(`PostgreSQL not reachable at ${PG_ADMIN}: PostgreSQL figures SKIPPED.`);

const all: Array<Record<string, string | number>> = [];
const loads: Array<Record<string, string | number>> = [];
for (const engine of engines) {
  for (const size of SIZES) {
    const { rows, seedMs, loadRow } = await benchEngine(engine, size);
    console.info(`${engine}: seeded ${size} users in ${(seedMs / 1000).toFixed(1)} s`);
    all.push(...rows);
    loads.push(loadRow);
  }
}
if (runApi) {
  console.info(`\nList APIs over HTTP, ${SAMPLES} sequential requests per case:`);
  console.table(all);
  console.info(
    `\nUsers list, first page (25), ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s (autocannon):`,
  );
  console.table(loads);
}
if (!BENCH_ONLY || BENCH_ONLY.includes('web')) await benchWeb();
if (!BENCH_ONLY || BENCH_ONLY.includes('gateways')) await benchGateways();
if (!BENCH_ONLY || BENCH_ONLY.includes('longpolls')) await benchLongPolls();
if (!BENCH_ONLY || BENCH_ONLY.includes('telemetry')) await benchTelemetry();
if (!BENCH_ONLY || BENCH_ONLY.includes('partners')) await benchPartners();
const bundle = bundleSize();
if (bundle) {
  console.info(
    `Initial web payload (gzip -9): JS ${(bundle.js / 1024).toFixed(1)} kB + CSS ${(bundle.css / 1024).toFixed(1)} kB = ${((bundle.js + bundle.css) / 1024).toFixed(1)} kB in ${bundle.files} files`,
  );
  console.info(
    `Sign-in page scripts and styles as served (brotli where precompressed, + the screen's own): ${(bundle.signInServed / 1024).toFixed(1)} kB in ${bundle.signInFiles} files`,
  );
} else {
  console.info('Web app not built (npm run build): bundle size SKIPPED.');
}
