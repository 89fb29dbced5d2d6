/**
 * Waiting long-polls against the console in `npm run bench` (BENCH_ONLY=longpolls), on PGlite and PostgreSQL:
 * an administrator's page (the users list, 1 000 end users) and save (a policy update) with no gateway waiting,
 * then with BENCH_LONG_POLLS (500) gateways holding a bundle long-poll (`?wait=60`, asking again at once when
 * answered, as the reference gateway does). A tenant holds at most 256 gateways, so they are spread over tenants
 * of 100, none of them the administrator's `bench`. Two saves: one in `bench` (it wakes no gateway: what waiting
 * gateways cost the console), and one in `fleet1`, which pushes a new bundle to its 100 waiting gateways (with the
 * time until they all held it). p50/p95 over real HTTP. Goal: the page and the `bench` save as fast with the
 * gateways waiting as without.
 */
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { generateKeyPair } from '@palisade/gateway-config';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { measure, ms, percentile, postgresDatabase, SAMPLES } from './common';

const LONG_POLLS = Number(process.env.BENCH_LONG_POLLS ?? 500);
const SAVES = Number(process.env.BENCH_LONG_POLL_SAVES ?? 20);
const GATEWAYS_PER_TENANT = 100;
const PASSWORD = 'bench-password-1';

const json = { 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Fleet {
  /** Resolves once every gateway of the saving tenant was answered after this call, and asked again. */
  ownAnswered(): Promise<void>;
  /** Stops the gateways; answers how many long-polls answered something other than 200 or 304 (none expected). */
  stop(): Promise<number>;
}

/**
 * The gateways, in a worker thread of their own: their 500 fetches and sockets must not share the event loop (and
 * the HTTP client's connection pool) with the server and the measured requests. Plain JavaScript, run with eval.
 */
const FLEET_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, credentials, own } = workerData;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let isStopping = false;
let failed = 0;
const controllers = credentials.map(() => new AbortController());
const answeredAt = credentials.map(() => 0);
(async () => {
  const versions = await Promise.all(credentials.map(async (credential) => {
    const res = await fetch(base + '/api/gw/bundle?wait=0', { headers: { authorization: 'Bearer ' + credential } });
    if (res.status !== 200) throw new Error('a first bundle answered ' + res.status);
    return (await res.json()).version;
  }));
  const loops = credentials.map(async (credential, i) => {
    while (!isStopping) {
      try {
        const res = await fetch(base + '/api/gw/bundle?wait=60', {
          headers: { authorization: 'Bearer ' + credential, 'if-none-match': '"' + versions[i] + '"' },
          signal: controllers[i].signal,
        });
        if (res.status === 200) versions[i] = (await res.json()).version;
        else await res.arrayBuffer();
        if (res.status !== 200 && res.status !== 304) { failed++; await sleep(1000); }
        answeredAt[i] = performance.now();
      } catch (error) {
        if (isStopping) return;
        throw error;
      }
    }
  });
  parentPort.on('message', async (message) => {
    if (message === 'own') {
      const since = performance.now();
      while (answeredAt.slice(0, own).some((at) => at < since)) await sleep(2);
      parentPort.postMessage('answered');
    } else if (message === 'stop') {
      isStopping = true;
      for (const controller of controllers) controller.abort();
      await Promise.all(loops);
      parentPort.postMessage({ failed });
    }
  });
  parentPort.postMessage('started');
})();
`;

/** Gateways long-polling their bundle without pause until stopped; the first `own` are the saving tenant's. */
async function startFleet(base: string, credentials: string[], own: number): Promise<Fleet> {
  const worker = new Worker(FLEET_WORKER, { eval: true, workerData: { base, credentials, own } });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: T) => {
        worker.off('error', onError);
        resolve(message);
      };
      const onError = (error: Error) => {
        worker.off('message', onMessage);
        reject(error);
      };
      worker.once('message', onMessage);
      worker.once('error', onError);
    });
  await next();
  // Every gateway has read its bundle and waits (PGlite reads 500 one after the other).
  await sleep(5000);
  return {
    async ownAnswered() {
      const answered = next();
      worker.postMessage('own');
      await answered;
      // ...and has asked again.
      await sleep(50);
    },
    async stop() {
      const stopped = next<{ failed: number }>();
      worker.postMessage('stop');
      const { failed } = await stopped;
      await worker.terminate();
      return failed;
    },
  };
}

/** p50/p95 of `count` sequential policy updates; with a fleet, the p95 until the tenant's gateways held each. */
async function measureSaves(
  base: string,
  admin: Record<string, string>,
  { tenant, policyId }: { tenant: string; policyId: string },
  count: number,
  fleet: Fleet | null,
) {
  const times: number[] = [];
  const herd: number[] = [];
  for (let i = 0; i < count + 2; i++) {
    const answered = fleet?.ownAnswered();
    const start = performance.now();
    const res = await fetch(`${base}/api/policy/${tenant}/${policyId}`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({
        type: 'other',
        name: 'Bench policy',
        rules: [
          {
            name: 'Block',
            type: 'dmn',
            action: 'block',
            url: `save${i}-${randomBytes(3).toString('hex')}.example`,
          },
        ],
      }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`saving a policy answered ${res.status}`);
    const saved = performance.now();
    // The first two warm caches and plans.
    if (i >= 2) times.push(saved - start);
    if (answered) {
      await answered;
      if (i >= 2) herd.push(performance.now() - saved);
    }
  }
  times.sort((a, b) => a - b);
  herd.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    herdP95: herd.length ? percentile(herd, 95) : null,
  };
}

async function benchEngine(engine: 'pglite' | 'postgres', databaseUrl: string) {
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
    const hash = await hashPassword(PASSWORD);
    const fleetNames = Array.from(
      { length: Math.ceil(LONG_POLLS / GATEWAYS_PER_TENANT) },
      (_, i) => `fleet${i + 1}`,
    );
    for (const name of ['bench', ...fleetNames]) {
      const username = `admin@${name}.example`;
      await db.execute(
        sql`insert into tenants (name, display_name, kind) values (${name}, ${name}, 'customer')`,
      );
      await db.execute(sql`insert into users (tenant_id, username, email, firstname, lastname, usertype, role,
          password_hash, is_email_verified)
        select id, ${username}, ${username}, 'Bench', 'Admin', 1, 'owner', ${hash}, true
        from tenants where name = ${name}`);
    }
    await db.execute(sql`insert into users (tenant_id, username, email, firstname, lastname)
      select t.id, 'user' || i || '@bench.example', 'user' || i || '@bench.example', 'Anna', 'Surname' || i
      from tenants t, generate_series(1, 1000) i where t.name = 'bench'`);
    await db.execute(sql`analyze`);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const bound = app.server.address();
    const base = `http://127.0.0.1:${typeof bound === 'object' && bound ? bound.port : 0}`;
    const adminOf = async (name: string) => {
      const signIn = await fetch(`${base}/api/session`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ username: `admin@${name}.example`, password: PASSWORD }),
      });
      return { ...json, 'x-auth-token': ((await signIn.json()) as { sessid: string }).sessid };
    };
    const policyOf = async (tenant: string, admin: Record<string, string>) => {
      const created = await fetch(`${base}/api/policy/${tenant}`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({
          type: 'other',
          name: 'Bench policy',
          rules: [{ name: 'Block', type: 'dmn', action: 'block', url: 'first.example' }],
        }),
      });
      const policyId = ((await created.json()) as { policy?: { id: string } }).policy?.id;
      if (!policyId) throw new Error(`creating a policy answered ${created.status}`);
      return { tenant, policyId };
    };
    const admin = await adminOf('bench');
    const fleetAdmin = await adminOf('fleet1');
    const quiet = await policyOf('bench', admin);
    const pushing = await policyOf('fleet1', fleetAdmin);

    const enrolled = Date.now();
    const credentials: string[] = [];
    for (const [t, name] of fleetNames.entries()) {
      const owner = name === 'fleet1' ? fleetAdmin : await adminOf(name);
      for (let k = 0; k < Math.min(GATEWAYS_PER_TENANT, LONG_POLLS - t * GATEWAYS_PER_TENANT); k++) {
        const gateway = await fetch(`${base}/api/cybernodes/${name}`, {
          method: 'POST',
          headers: owner,
          body: JSON.stringify({ name: `Gateway ${k}`, kind: 'cgw', region: 'eu-central' }),
        });
        if (gateway.status !== 201) throw new Error(`adding a gateway answered ${gateway.status}`);
        const { enrolmentToken } = (await gateway.json()) as { enrolmentToken: { token: string } };
        const enrolment = await fetch(`${base}/api/gw/enrol`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({
            token: enrolmentToken.token,
            publicKey: generateKeyPair().publicKey,
            hostname: `gw${k}.${name}`,
            version: '1.0.0',
          }),
        });
        if (enrolment.status !== 201) throw new Error(`enrolling a gateway answered ${enrolment.status}`);
        credentials.push(((await enrolment.json()) as { credential: string }).credential);
      }
    }
    console.info(
      `long-polls, ${engine}: enrolled ${LONG_POLLS} gateways in ${fleetNames.length} tenants in ${((Date.now() - enrolled) / 1000).toFixed(1)} s`,
    );

    const page = `${base}/api/subscriber/user/bench?limit=25`;
    const sessid = admin['x-auth-token'];
    // Warm-up: plans, caches and the JIT, so that the first row is not the slower for going first.
    await measure(page, sessid);
    await measureSaves(base, admin, quiet, 5, null);
    await measureSaves(base, fleetAdmin, pushing, 5, null);
    const idle = {
      list: await measure(page, sessid),
      quiet: await measureSaves(base, admin, quiet, SAVES, null),
      pushing: await measureSaves(base, fleetAdmin, pushing, SAVES, null),
    };
    const fleet = await startFleet(base, credentials, Math.min(GATEWAYS_PER_TENANT, LONG_POLLS));
    const busy = {
      list: await measure(page, sessid),
      quiet: await measureSaves(base, admin, quiet, SAVES, null),
      pushing: await measureSaves(base, fleetAdmin, pushing, SAVES, fleet),
    };
    const failed = await fleet.stop();
    if (failed > 0) throw new Error(`${failed} long-polls failed`);
    const row = (waiting: number, figures: typeof idle) => ({
      engine,
      'waiting long-polls': waiting,
      'users list p50/p95 (ms)': `${ms(figures.list.p50)} / ${ms(figures.list.p95)}`,
      'save, no gateway woken, p50/p95 (ms)': `${ms(figures.quiet.p50)} / ${ms(figures.quiet.p95)}`,
      'save waking 100 gateways, p50/p95 (ms)': `${ms(figures.pushing.p50)} / ${ms(figures.pushing.p95)}`,
      'then all 100 hold it, p95 (ms)': figures.pushing.herdP95 === null ? '–' : ms(figures.pushing.herdP95),
    });
    return [row(0, idle), row(LONG_POLLS, busy)];
  } finally {
    await close();
    await database.close();
  }
}

export async function benchLongPolls(): Promise<void> {
  const rows = await benchEngine('pglite', 'memory://');
  const pg = await postgresDatabase('longpolls');
  if (pg) {
    try {
      rows.push(...(await benchEngine('postgres', pg.url)));
    } finally {
      await pg.drop();
    }
  } else {
    console.info('PostgreSQL not reachable: long-poll figures on PostgreSQL SKIPPED.');
  }
  console.info(
    `\nThe console with gateways long-polling (${SAMPLES} users-list pages, ${SAVES} policy saves per row):`,
  );
  console.table(rows);
}
