/**
 * The gateway side of `npm run bench` (BENCH_ONLY=gateways):
 *  - save-to-enforced latency: 100 gateways long-poll their bundle over real HTTP; an administrator saves a
 *    policy; the time until each gateway holds the new version (p50/p95 over several saves; goal p95 ≤ 1 s);
 *  - compile time and size of a tenant's bundle at 10 000 and 100 000 rules (goal ≤ 200 ms at 10 000);
 *  - nft apply: a real `nft -f` of the network layer's ruleset at 10 000 and 100 000 network rules in a throwaway
 *    network namespace (goals ≤ 1 s and ≤ 5 s; skipped with the reason when not root or without nft);
 *  - heartbeats taken per second on one instance (100 gateways reporting at once);
 *  - bundles on the wire and a save at 10 000 rules with 100 gateways waiting (bundle-wire.ts).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  bundleVersion,
  generateKeyPair,
  nftablesRuleset,
  rpzZone,
  type SubjectAddresses,
  squidAcl,
} from '@palisade/gateway-config';
import type { EngineInput } from '@palisade/policy-engine';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { benchBundleWire } from './bundle-wire';

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

/**
 * A tenant's engine input with `rules` network rules, 1 000 a policy: addresses and /24 blocks (every 7th a
 * block overlapping earlier addresses), block / allow / route, every 10th rule with ports (so groups of one
 * shape break), every third policy for a group of 250 devices (its source set).
 */
function networkInput(rules: number): { input: EngineInput; subjectAddresses: SubjectAddresses } {
  const perPolicy = 1000;
  const policies = [];
  for (let p = 0; p * perPolicy < rules; p++) {
    const list = [];
    for (let i = p * perPolicy; i < Math.min(rules, (p + 1) * perPolicy); i++) {
      const a = (i >> 16) & 255;
      const b = (i >> 8) & 255;
      list.push({
        id: `r${i}`,
        name: `Rule ${i}`,
        type: 'ROUTE',
        action: i % 5 === 0 ? 'allow' : i % 11 === 0 ? 'route' : 'block',
        url: i % 7 === 0 ? `10.${a}.${b}.0/24` : `10.${a}.${b}.${i & 255}`,
        target: i % 11 === 0 ? 'gw1' : '',
        categories: [],
        feeds: [],
        locations: [],
        ports: i % 10 === 0 ? ['443', '22', '80, 8000-8080'][(i / 10) % 3] : '',
        schedule: null,
        enabled: true,
        issysgen: false,
      });
    }
    policies.push({
      id: `p${String(p).padStart(4, '0')}`,
      name: `Policy ${p}`,
      type: 'other' as const,
      enabled: true,
      precedence: p,
      rules: list,
      appliesTo: p % 3 === 2 ? { users: [], groups: ['staff'], devices: [] } : null,
    });
  }
  const staff = Array.from({ length: 250 }, (_, i) => `100.64.${i >> 6}.${(i & 63) * 4 + 2}`);
  return {
    input: {
      policies: policies as unknown as EngineInput['policies'],
      objects: { apps: [], categories: [], feeds: [], locations: [] },
    },
    subjectAddresses: { groups: { staff } },
  };
}

/** Why nft apply cannot be measured here, or null. */
function nftSkipReason(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root (network namespaces need root)';
  const path = `${process.env.PATH ?? ''}:/usr/sbin:/sbin`.split(':');
  for (const tool of ['ip', 'nft']) {
    if (!path.some((dir) => dir !== '' && existsSync(join(dir, tool)))) {
      return `${tool} missing (bash scripts/net-tools.sh installs it)`;
    }
  }
  return null;
}

/**
 * The time of a real `nft -f` of the generated ruleset for `rules` network rules, in a network namespace of its
 * own (removed after): the first load and two replacements (what a gateway does on a change); the slowest
 * is the figure.
 */
function nftApplyBench(rules: number, goal: number): string {
  const label = `nft apply ${rules.toLocaleString('en-US').replaceAll(',', ' ')} rules`;
  const skip = nftSkipReason();
  if (skip !== null) return `${label}: skipped (${skip})`;
  const { input, subjectAddresses } = networkInput(rules);
  const generatedAt = performance.now();
  const { text } = nftablesRuleset(input, {
    subjectAddresses,
    routeMarks: { gw1: 1 },
    interfaces: ['wg0'],
  });
  const generateMs = performance.now() - generatedAt;
  const env = { ...process.env, TZ: 'UTC', PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` };
  const dir = mkdtempSync(join(tmpdir(), 'pal-bench-nft-'));
  const file = join(dir, 'nftables.nft');
  writeFileSync(file, text);
  const netns = `palbench${randomBytes(3).toString('hex')}`;
  const added = spawnSync('ip', ['netns', 'add', netns], { env, encoding: 'utf8' });
  if (added.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return `${label}: skipped (ip netns add: ${added.stderr.trim()})`;
  }
  try {
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      const r = spawnSync('ip', ['netns', 'exec', netns, 'nft', '-f', file], {
        env,
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      });
      times.push(performance.now() - start);
      if (r.status !== 0) throw new Error(`nft -f failed: ${r.stderr.slice(0, 2000)}`);
    }
    const worst = Math.max(...times);
    return (
      `${label}: ${Math.round(worst)} ms (goal ≤ ${goal}) — first load ${Math.round(times[0])} ms, ` +
      `replacing ${times.slice(1).map(Math.round).join(' / ')} ms; ${Math.round(Buffer.byteLength(text) / 1024)} kB, ` +
      `${text.match(/vmap/g)?.length ?? 0} verdict-map lookups, generated in ${Math.round(generateMs)} ms`
    );
  } finally {
    spawnSync('ip', ['netns', 'del', netns], { env });
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchGateways(): Promise<void> {
  console.info('\nGateways: bundle compile time and size');
  console.table([compileBench(10_000), compileBench(100_000)]);
  // Bundles on the wire (gzip, one-rule deltas) and a save at 10 000 rules with 100 gateways (bundle-wire.ts).
  await benchBundleWire();

  console.info('\nGateways: nftables ruleset applied with nft -f in a throwaway network namespace');
  for (const [rules, goal] of [
    [10_000, 1000],
    [100_000, 5000],
  ] as const) {
    console.info(nftApplyBench(rules, goal));
  }

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
