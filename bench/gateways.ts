/**
 * The gateway side of `npm run bench` (BENCH_ONLY=gateways):
 *  - save-to-enforced latency: 100 gateways long-poll their bundle over real HTTP; an administrator saves a
 *    policy; the time until each gateway holds the new version (p50/p95 over several saves; goal p95 ≤ 1 s);
 *  - compile time and size of a tenant's bundle at 10 000 and 100 000 rules (goal ≤ 200 ms at 10 000);
 *  - heartbeats taken per second on one instance (100 gateways reporting at once).
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { bundleVersion, generateKeyPair, nftablesRuleset, rpzZone, squidAcl } from '@palisade/gateway-config';
import type { EngineInput } from '@palisade/policy-engine';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { hashPassword } from '../apps/server/src/lib/passwords';

const GATEWAYS = Number(process.env.BENCH_GATEWAYS ?? 100);
const SAVES = Number(process.env.BENCH_GATEWAY_SAVES ?? 10);
const HEARTBEAT_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (value: number) => Number(value.toFixed(1));

const wireguardPublicKey = () => generateKeyPair().publicKey;

/** A tenant's engine input with `rules` rules over realistic matchers (domains, networks, URLs, keywords). */
function syntheticInput(rules: number): EngineInput {
  const perPolicy = 1000;
  const policies = [];
  for (let p = 0; p * perPolicy < rules; p++) {
    const list = [];
    for (let i = p * perPolicy; i < Math.min(rules, (p + 1) * perPolicy); i++) {
      const kind = i % 4;
      list.push({
        id: `r${i}`,
        name: `Rule ${i}`,
        type: kind === 0 || kind === 1 ? 'dmn' : kind === 2 ? 'ROUTE' : 'url',
        action: i % 5 === 0 ? 'allow' : 'block',
        url:
          kind === 2
            ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
            : kind === 3
              ? `site${i}.example/path${i}`
              : `host${i}.example`,
        target: null,
        categories: [],
        feeds: [],
        locations: [],
        ports: '',
        schedule: null,
        enabled: true,
        issysgen: false,
      });
    }
    policies.push({
      id: `p${p}`,
      name: `Policy ${p}`,
      type: 'other' as const,
      enabled: true,
      precedence: p,
      rules: list,
      appliesTo: null,
    });
  }
  return {
    policies: policies as unknown as EngineInput['policies'],
    objects: { apps: [], categories: [], feeds: [], locations: [] },
  };
}

function compileBench(rules: number) {
  const input = syntheticInput(rules);
  const times: number[] = [];
  let size = 0;
  let gzip = 0;
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    const artefacts = {
      nftables: nftablesRuleset(input).text,
      rpz: rpzZone(input, { serial: 1 }).text,
      squid: squidAcl(input).text,
    };
    bundleVersion(artefacts);
    times.push(performance.now() - start);
    const json = JSON.stringify({ artefacts, policy: input });
    size = Buffer.byteLength(json);
    gzip = gzipSync(json).length;
  }
  times.sort((a, b) => a - b);
  return {
    rules,
    'compile p50 (ms)': ms(percentile(times, 50)),
    'compile max (ms)': ms(times.at(-1) ?? 0),
    'bundle (kB)': ms(size / 1024),
    'bundle gzip (kB)': ms(gzip / 1024),
  };
}

export async function benchGateways(): Promise<void> {
  console.info('\nGateways: bundle compile time and size');
  console.table([compileBench(10_000), compileBench(100_000)]);

  const database = await openDatabase({ databaseUrl: 'memory://', dataDir: '' });
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', SECRET_KEY: randomBytes(32).toString('hex') }, []),
    rateLimit: { max: 1_000_000, windowMs: 60_000 },
  };
  const { app, close } = await buildApp(config, { database, logger: false });
  try {
    const hash = await hashPassword('bench-password-1');
    await database.db.execute(
      sql`insert into tenants (name, display_name, kind) values ('bench', 'Bench', 'customer')`,
    );
    await database.db.execute(sql`insert into users (tenant_id, username, email, firstname, lastname, usertype, role, password_hash, is_email_verified)
      select id, 'admin@bench.example', 'admin@bench.example', 'Bench', 'Admin', 1, 'owner', ${hash}, true from tenants where name = 'bench'`);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const json = { 'content-type': 'application/json' };
    const signIn = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: 'admin@bench.example', password: 'bench-password-1' }),
    });
    const { sessid } = (await signIn.json()) as { sessid: string };
    const admin = { ...json, 'x-auth-token': sessid };

    const credentials: string[] = [];
    for (let i = 0; i < GATEWAYS; i++) {
      const created = await fetch(`${base}/api/cybernodes/bench`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: `Gateway ${i}`, kind: 'cgw', region: 'eu-central' }),
      });
      const { enrolmentToken } = (await created.json()) as { enrolmentToken: { token: string } };
      const enrolled = await fetch(`${base}/api/gw/enrol`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          token: enrolmentToken.token,
          publicKey: wireguardPublicKey(),
          hostname: `gw${i}.bench`,
          version: '1.0.0',
        }),
      });
      credentials.push(((await enrolled.json()) as { credential: string }).credential);
    }
    const versions = await Promise.all(
      credentials.map(async (credential) => {
        const res = await fetch(`${base}/api/gw/bundle?wait=0`, {
          headers: { authorization: `Bearer ${credential}` },
        });
        return ((await res.json()) as { version: string }).version;
      }),
    );

    const latencies: number[] = [];
    for (let save = 0; save < SAVES; save++) {
      const polls = credentials.map(async (credential, i) => {
        const res = await fetch(`${base}/api/gw/bundle?wait=30`, {
          headers: { authorization: `Bearer ${credential}`, 'if-none-match': `"${versions[i]}"` },
        });
        const arrived = performance.now();
        versions[i] = ((await res.json()) as { version: string }).version;
        return arrived;
      });
      // Every gateway is waiting before the save.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const savedAt = performance.now();
      const saved = await fetch(`${base}/api/policy/bench`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({
          type: 'other',
          name: `Bench block ${save}`,
          rules: [{ name: 'Block', type: 'dmn', action: 'block', url: `bench${save}.example` }],
        }),
      });
      if (saved.status !== 201) throw new Error(`saving a policy answered ${saved.status}`);
      for (const arrived of await Promise.all(polls)) latencies.push(arrived - savedAt);
    }
    latencies.sort((a, b) => a - b);
    console.info(
      `\nGateways: save-to-enforced with ${GATEWAYS} long-polling gateways, ${SAVES} saves (PGlite):`,
    );
    console.table([
      {
        gateways: GATEWAYS,
        saves: SAVES,
        'p50 (ms)': ms(percentile(latencies, 50)),
        'p95 (ms)': ms(percentile(latencies, 95)),
        'max (ms)': ms(latencies.at(-1) ?? 0),
      },
    ]);

    const metrics = {
      cpuPercent: 5,
      memoryPercent: 30,
      throughputBps: 1000,
      uptimeSeconds: 10,
      activePeers: 0,
      connectedUsers: 0,
    };
    const until = performance.now() + HEARTBEAT_SECONDS * 1000;
    let beats = 0;
    await Promise.all(
      credentials.map(async (credential, i) => {
        while (performance.now() < until) {
          const res = await fetch(`${base}/api/gw/heartbeat`, {
            method: 'POST',
            headers: { ...json, authorization: `Bearer ${credential}` },
            body: JSON.stringify({ version: '1.0.0', enforcedVersion: versions[i], metrics, peers: [] }),
          });
          await res.arrayBuffer();
          if (res.status === 200) beats++;
        }
      }),
    );
    console.info(`\nGateways: heartbeats taken by one instance (PGlite), ${GATEWAYS} gateways at once:`);
    console.table([
      { seconds: HEARTBEAT_SECONDS, heartbeats: beats, 'per second': Math.round(beats / HEARTBEAT_SECONDS) },
    ]);
  } finally {
    await close();
  }
}
