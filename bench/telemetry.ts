/**
 * Telemetry in `npm run bench` (BENCH_ONLY=telemetry):
 *  - ingest: gateways post NDJSON batches of 1 000 decision events to POST /api/gw/events over real HTTP, 8 at a
 *    time, for BENCH_LOAD_SECONDS; events per second stored (with their rollups) and the p95 time to the 202,
 *    on PostgreSQL (goal ≥ 20 000/s on one instance, 2 cores) and PGlite alongside;
 *  - dashboards over 10 000 000 events of 30 days (PostgreSQL): each panel's p95 over real HTTP (goal ≤ 200 ms):
 *    the overview of 1 h, 24 h, 7 d and 30 d, top lists of 30 d, private access of 30 d, a drill-down page.
 */
import { randomBytes } from 'node:crypto';
import { generateKeyPair } from '@palisade/gateway-config';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { type Database, openDatabase, queryRows } from '../apps/server/src/db/client';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { eventStoreOf } from '../apps/server/src/modules/telemetry/telemetry.service';
import { measure, ms, PG_ADMIN, percentile, postgresDatabase } from './common';

const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const EVENTS = Number(process.env.BENCH_TELEMETRY_EVENTS ?? 10_000_000);
const BATCH = 1000;
const POSTERS = 8;
const DAY = 86_400_000;
const NIL = '00000000-0000-0000-0000-000000000000';

const DESTINATIONS = Array.from({ length: 500 }, (_, i) => `site${i}.example`);
const CATEGORIES = ['business', 'search', 'social', 'streaming', 'news', 'games', 'gambling', 'malware'];

/** One decision event line of a batch (plausible, distinct ids). */
function decisionLine(id: string, at: number, i: number, users: string[]) {
  const blocked = i % 7 === 0;
  return JSON.stringify({
    id,
    at: new Date(at).toISOString(),
    kind: 'decision',
    data: {
      layer: i % 3 === 0 ? 'dns' : i % 3 === 1 ? 'http' : 'network',
      decision: blocked ? 'block' : 'allow',
      destination: DESTINATIONS[(i * 7919) % DESTINATIONS.length],
      category: CATEGORIES[i % CATEGORIES.length],
      country: i % 5 === 0 ? 'US' : 'DE',
      userId: users[i % users.length],
      ...(blocked ? { ruleName: 'Block risky categories' } : {}),
    },
  });
}

async function setUp(databaseUrl: string) {
  const config = {
    ...loadConfig(
      { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SECRET_KEY: randomBytes(32).toString('hex') },
      [],
    ),
    rateLimit: { max: 100_000_000, windowMs: 60_000 },
  };
  const database = await openDatabase({ databaseUrl, dataDir: '' });
  const { app, close } = await buildApp(config, { database, logger: false });
  const hash = await hashPassword('bench-password-1');
  await database.db.execute(
    sql`insert into tenants (name, display_name, kind) values ('bench', 'Bench', 'customer')`,
  );
  await database.db.execute(sql`insert into users (tenant_id, username, email, firstname, lastname, usertype, role, password_hash, is_email_verified)
    select id, 'admin@bench.example', 'admin@bench.example', 'Bench', 'Admin', 1, 'owner', ${hash}, true from tenants where name = 'bench'`);
  await database.db.execute(sql`insert into users (tenant_id, username, email, firstname, lastname, usertype, role)
    select t.id, 'user' || n || '@bench.example', 'user' || n || '@bench.example', 'User', 'N' || n, 0, 'user'
    from tenants t, generate_series(1, 200) n where t.name = 'bench'`);
  const ids = await queryRows<{ id: string; tenant_id: string }>(
    database.db,
    sql`select u.id, u.tenant_id from users u join tenants t on t.id = u.tenant_id
        where t.name = 'bench' and u.usertype = 0`,
  );
  const users = ids.map((row) => String(row.id));
  const tenantId = String(ids[0].tenant_id);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const bound = app.server.address();
  const address = `http://127.0.0.1:${typeof bound === 'object' && bound ? bound.port : 0}`;
  const signIn = await fetch(`${address}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin@bench.example', password: 'bench-password-1' }),
  });
  const token = ((await signIn.json()) as { sessid: string }).sessid;
  const gateways: { id: string; credential: string }[] = [];
  for (let g = 0; g < 4; g++) {
    const created = await fetch(`${address}/api/cybernodes/bench`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      body: JSON.stringify({ name: `Bench PoP ${g}`, kind: 'cybernode', region: 'bench' }),
    }).then((r) => r.json() as Promise<{ cybernode: { id: string }; enrolmentToken: { token: string } }>);
    const enrolled = await fetch(`${address}/api/gw/enrol`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token: created.enrolmentToken.token,
        publicKey: generateKeyPair().publicKey,
        hostname: `bench-${g}.test`,
        version: '1.0.0',
      }),
    }).then((r) => r.json() as Promise<{ credential: string }>);
    gateways.push({ id: created.cybernode.id, credential: enrolled.credential });
  }
  return { close, database, address, token, tenantId, users, gateways };
}

/** Posts batches for LOAD_SECONDS, POSTERS at a time; events stored per second and the p95 acknowledgement. */
async function benchIngest(engine: string, databaseUrl: string) {
  const { close, database, address, users, gateways } = await setUp(databaseUrl);
  try {
    // The batches are made before the clock starts: the posters share this process with the server.
    const perPoster = Math.ceil((40_000 * LOAD_SECONDS) / BATCH / POSTERS);
    const now = Date.now();
    const bodies = Array.from({ length: POSTERS }, (_, p) =>
      Array.from({ length: perPoster }, (_, b) =>
        Array.from({ length: BATCH }, (_, i) => {
          const n = (p * perPoster + b) * BATCH + i;
          return decisionLine(`p${p}-${n}`, now - (i % 60) * 1000, n, users);
        }).join('\n'),
      ),
    );
    const started = Date.now();
    const end = started + LOAD_SECONDS * 1000;
    const acks: number[] = [];
    let stored = 0;
    const poster = async (p: number) => {
      const gateway = gateways[p % gateways.length];
      for (const body of bodies[p]) {
        if (Date.now() >= end) break;
        const sent = performance.now();
        const res = await fetch(`${address}/api/gw/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${gateway.credential}`, 'content-type': 'application/x-ndjson' },
          body,
        });
        const answer = (await res.json()) as { accepted: number };
        if (res.status !== 202) throw new Error(`ingest answered ${res.status}`);
        acks.push(performance.now() - sent);
        stored += answer.accepted;
      }
    };
    await Promise.all(Array.from({ length: POSTERS }, (_, p) => poster(p)));
    const seconds = (Date.now() - started) / 1000;
    acks.sort((a, b) => a - b);
    console.info(
      `telemetry ingest, ${engine}: ${Math.round(stored / seconds)} events/s stored with their rollups ` +
        `(${stored} in ${seconds.toFixed(1)} s, batches of ${BATCH}, ${POSTERS} at a time); acknowledgement ` +
        `p50 ${ms(percentile(acks, 50))} ms, p95 ${ms(percentile(acks, 95))} ms (goal on PostgreSQL: ≥ 20 000/s)`,
    );
  } finally {
    await close();
    await database.close();
  }
}

/** 10 000 000 events of 30 days straight into the store (generate_series), and the rollups the ingest keeps. */
async function fill(database: Database, tenantId: string, gateways: string[], users: string[]) {
  const store = eventStoreOf(database);
  const today = Math.floor(Date.now() / DAY) * DAY;
  await store.ensureDays(Array.from({ length: 31 }, (_, i) => today - (30 - i) * DAY));
  const started = Date.now();
  const span = 30 * DAY - 60_000;
  const chunk = 1_000_000;
  for (let done = 0; done < EVENTS; done += chunk) {
    const n = Math.min(chunk, EVENTS - done);
    await database.db.execute(sql`
      insert into telemetry_events (tenant_id, at, gateway_id, event_id, kind, action, layer, user_id, destination,
        category, country, rule_name, threat, duration_ms, bytes_in)
      select ${tenantId}::uuid,
        now() - make_interval(secs => ((i * 2654435761::bigint) % ${span / 1000})::double precision),
        (${`{${gateways.join(',')}}`}::uuid[])[1 + i % ${gateways.length}],
        'b' || i,
        case when i % 50 = 0 then 'connection' else 'decision' end,
        case when i % 50 = 0 then (case when i % 100 = 0 then 'connected' else 'disconnected' end)
             when i % 7 = 0 then 'block' else 'allow' end,
        case when i % 50 = 0 then null when i % 3 = 0 then 'dns' when i % 3 = 1 then 'http' else 'network' end,
        (${`{${users.join(',')}}`}::uuid[])[1 + i % ${users.length}],
        case when i % 50 = 0 then null else 'site' || ((i * 7919) % 500) || '.example' end,
        case when i % 50 = 0 then null else (${`{${CATEGORIES.join(',')}}`}::text[])[1 + i % 8] end,
        case when i % 50 = 0 then null when i % 5 = 0 then 'US' else 'DE' end,
        case when i % 7 = 0 and i % 50 <> 0 then 'Block risky categories' end,
        case when i % 997 = 0 and i % 50 <> 0 then 'Abuse feed' end,
        case when i % 100 = 50 then 3600000 end,
        1000 + i % 5000
      from generate_series(${done + 1}::bigint, ${done + n}::bigint) i`);
  }
  const loaded = Date.now();
  await database.db.execute(sql`
    insert into telemetry_minute (tenant_id, minute, kind, layer, decision, events, bytes)
    select tenant_id, date_trunc('minute', at), kind, coalesce(layer, ''),
      case when kind = 'decision' then action else '' end, count(*), sum(coalesce(bytes_in, 0))
    from telemetry_events where tenant_id = ${tenantId} and at > now() - interval '8 days'
    group by 1, 2, 3, 4, 5`);
  await database.db.execute(sql`
    insert into telemetry_hour_top (tenant_id, hour, dimension, value, decision, events, bytes)
    select i.tenant_id, date_trunc('hour', i.at), d.dimension, d.value, coalesce(i.action, ''), count(*),
      sum(coalesce(i.bytes_in, 0))
    from telemetry_events i
    cross join lateral (values ('kind', i.kind), ('layer', i.layer), ('gateway', i.gateway_id::text),
      ('destination', i.destination), ('category', i.category), ('country', i.country), ('threat', i.threat),
      ('user', i.user_id::text), ('rule', i.rule_name)) as d(dimension, value)
    where i.tenant_id = ${tenantId} and d.value is not null
    group by 1, 2, 3, 4, 5`);
  await database.db.execute(sql`
    insert into telemetry_day_top (tenant_id, day, dimension, value, decision, events, bytes)
    select tenant_id, date_trunc('day', hour, 'UTC'), dimension, value, decision, sum(events), sum(bytes)
    from telemetry_hour_top where tenant_id = ${tenantId} group by 1, 2, 3, 4, 5`);
  await database.db.execute(sql`
    insert into telemetry_day_sessions (tenant_id, day, gateway_id, user_id, device_id, sessions, duration_ms, bytes)
    select tenant_id, date_trunc('day', at, 'UTC'), gateway_id, coalesce(user_id, ${NIL}::uuid),
      coalesce(device_id, ${NIL}::uuid), count(*) filter (where action in ('connected', 'tunnel_up')),
      coalesce(sum(duration_ms) filter (where action in ('disconnected', 'tunnel_down')), 0),
      coalesce(sum(coalesce(bytes_in, 0) + coalesce(bytes_out, 0)), 0)
    from telemetry_events where tenant_id = ${tenantId} and kind = 'connection' group by 1, 2, 3, 4, 5`);
  await database.db.execute(sql`analyze telemetry_events`);
  await database.db.execute(sql`analyze telemetry_minute`);
  await database.db.execute(sql`analyze telemetry_hour_top`);
  await database.db.execute(sql`analyze telemetry_day_top`);
  await database.db.execute(sql`analyze telemetry_day_sessions`);
  console.info(
    `telemetry dashboards: ${EVENTS.toLocaleString('en')} events of 30 days loaded in ${((loaded - started) / 1000).toFixed(0)} s, ` +
      `rollups built in ${((Date.now() - loaded) / 1000).toFixed(0)} s`,
  );
}

async function benchDashboards(databaseUrl: string) {
  const { close, database, address, token, tenantId, users, gateways } = await setUp(databaseUrl);
  try {
    await fill(
      database,
      tenantId,
      gateways.map((g) => g.id),
      users,
    );
    const now = Date.now();
    const range = (days: number) =>
      `from=${new Date(now - days * DAY).toISOString()}&to=${new Date(now).toISOString()}`;
    const panels: [string, string][] = [
      ['overview, last hour (per minute)', `/telemetry/bench/overview?${range(1 / 24)}`],
      ['overview, 24 h (per hour)', `/telemetry/bench/overview?${range(1)}`],
      ['overview, 7 days', `/telemetry/bench/overview?${range(7)}`],
      ['overview, 30 days', `/telemetry/bench/overview?${range(30)}`],
      ['top destinations, 30 days', `/telemetry/bench/top?dimension=destination&${range(30)}`],
      [
        'top blocked categories, 30 days',
        `/telemetry/bench/top?dimension=category&decision=block&${range(30)}`,
      ],
      ['top users, 30 days', `/telemetry/bench/top?dimension=user&${range(30)}`],
      ['private access per site, 30 days', `/telemetry/bench/private-access?${range(30)}`],
      [
        'drill-down: blocked decisions of a category, 30 days',
        `/events/decisions/bench?decision=block&category=gambling&${range(30)}&withTotal=false`,
      ],
      [
        'drill-down: decisions of one destination, 24 h',
        `/events/decisions/bench?destination=site42.example&${range(1)}&withTotal=false`,
      ],
      ['connection events, first page', '/events/connections/bench'],
    ];
    for (const [name, path] of panels) {
      const { p50, p95 } = await measure(`${address}/api${path}`, token);
      console.info(
        `telemetry dashboards, PostgreSQL, ${EVENTS.toLocaleString('en')} events: ${name}: p50 ${ms(p50)} ms, p95 ${ms(p95)} ms (goal p95 ≤ 200 ms)`,
      );
    }
  } finally {
    await close();
    await database.close();
  }
}

/** BENCH_TELEMETRY_PARTS=ingest,dashboards picks parts (both when unset). */
const PARTS = process.env.BENCH_TELEMETRY_PARTS ?? 'ingest,dashboards';

export async function benchTelemetry() {
  if (PARTS.includes('ingest')) await benchIngest('PGlite', 'memory://');
  else console.info('BENCH_TELEMETRY_PARTS excludes ingest: ingest figures SKIPPED.');
  const first = await postgresDatabase('telemetry');
  if (!first) {
    console.info(`telemetry on PostgreSQL SKIPPED: no server answers at ${PG_ADMIN}`);
    return;
  }
  try {
    if (PARTS.includes('ingest')) await benchIngest('PostgreSQL', first.url);
  } finally {
    await first.drop();
  }
  if (!PARTS.includes('dashboards')) {
    console.info('BENCH_TELEMETRY_PARTS excludes dashboards: dashboard figures SKIPPED.');
    return;
  }
  const second = await postgresDatabase('telemetry');
  if (!second) return;
  try {
    await benchDashboards(second.url);
  } finally {
    await second.drop();
  }
}
