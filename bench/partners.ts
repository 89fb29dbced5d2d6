/**
 * The partner console in `npm run bench` (BENCH_ONLY=partners): its tenant list (`GET /api/partner/{p}/tenants`)
 * at 10 000 customer tenants of one partner (each with end users, devices and gateways to count, every tenth
 * suspended), p50/p95 over real HTTP on PGlite and PostgreSQL: the first page, a deep page, newest first, a
 * search and the suspended ones. No goal is set beyond the lists' usual: fast at any size.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { measure, ms, PG_ADMIN, postgresDatabase, SAMPLES } from './common';

const TENANTS = Number(process.env.BENCH_PARTNER_TENANTS ?? 10_000);

async function benchEngine(engine: string, databaseUrl: string) {
  const config = {
    ...loadConfig(
      { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SECRET_KEY: randomBytes(32).toString('hex') },
      [],
    ),
    rateLimit: { max: 100_000_000, windowMs: 60_000 },
  };
  const database = await openDatabase({ databaseUrl, dataDir: '' });
  const { app, close } = await buildApp(config, { database, logger: false });
  try {
    const { db } = database;
    const hash = await hashPassword('bench-password-1');
    await db.execute(
      sql`insert into tenants (name, display_name, kind) values ('bench-msp', 'Bench MSP', 'partner')`,
    );
    await db.execute(sql`insert into users (tenant_id, username, email, firstname, lastname, usertype, role,
        password_hash, is_email_verified)
      select id, 'msp@bench.example', 'msp@bench.example', 'Bench', 'MSP', 2, 'partner_admin', ${hash}, true
      from tenants where name = 'bench-msp'`);
    const seeded = Date.now();
    await db.execute(sql`insert into tenants (name, display_name, kind, parent_id, suspended_at, created_at)
      select 'customer-' || n, 'Customer ' || n, 'customer', p.id,
        case when n % 10 = 0 then now() end, now() - make_interval(mins => n)
      from tenants p, generate_series(1, ${TENANTS}) n where p.name = 'bench-msp'`);
    // Per tenant: 5 end users, 3 devices, 2 gateways (one of them silent).
    await db.execute(sql`insert into users (tenant_id, username, email, firstname, lastname, usertype, role)
      select t.id, t.name || '-user' || k || '@bench.example', t.name || '-user' || k || '@bench.example',
        'User', 'N' || k, 0, 'user'
      from tenants t, generate_series(1, 5) k where t.kind = 'customer'`);
    await db.execute(sql`insert into devices (tenant_id, name, os, enrolled_via, token_hash)
      select t.id, 'device ' || k, 'linux', 'link', md5(t.name || k)
      from tenants t, generate_series(1, 3) k where t.kind = 'customer'`);
    await db.execute(sql`insert into gateways (tenant_id, name, kind, region, enrolled_at, last_seen_at)
      select t.id, 'gateway ' || k, 'cybernode', 'eu', now() - interval '1 day',
        case when k = 1 then now() else now() - interval '1 hour' end
      from tenants t, generate_series(1, 2) k where t.kind = 'customer'`);
    await db.execute(sql`analyze`);
    console.info(
      `partners, ${engine}: seeded ${TENANTS} tenants in ${((Date.now() - seeded) / 1000).toFixed(1)} s`,
    );

    await app.listen({ port: 0, host: '127.0.0.1' });
    const bound = app.server.address();
    const address = `http://127.0.0.1:${typeof bound === 'object' && bound ? bound.port : 0}`;
    const signIn = await fetch(`${address}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'msp@bench.example', password: 'bench-password-1' }),
    });
    const token = ((await signIn.json()) as { sessid: string }).sessid;
    const base = `${address}/api/partner/bench-msp/tenants`;
    const cases: [string, string][] = [
      ['first page (25, by name)', `${base}?limit=25`],
      ['deep page (offset 9 950)', `${base}?limit=25&offset=9950`],
      ['newest first', `${base}?limit=25&sort=createdAt&order=desc`],
      ['search "customer-99"', `${base}?limit=25&q=customer-99`],
      ['suspended only', `${base}?limit=25&status=suspended`],
    ];
    const rows: Record<string, string | number>[] = [];
    for (const [name, url] of cases) {
      const { p50, p95 } = await measure(url, token);
      rows.push({ engine, case: name, 'p50 ms': ms(p50), 'p95 ms': ms(p95) });
    }
    return rows;
  } finally {
    await close();
    await database.close();
  }
}

export async function benchPartners() {
  const rows = await benchEngine('PGlite', 'memory://');
  const postgres = await postgresDatabase('partners');
  if (!postgres) console.info(`partners on PostgreSQL SKIPPED: no server answers at ${PG_ADMIN}`);
  else {
    try {
      rows.push(...(await benchEngine('PostgreSQL', postgres.url)));
    } finally {
      await postgres.drop();
    }
  }
  console.info(
    `\nThe partner console's tenant list at ${TENANTS} tenants, ${SAMPLES} sequential requests per case:`,
  );
  console.table(rows);
}
