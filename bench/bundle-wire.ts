/**
 * Bundles on the wire and save latency at size, for the gateways part of `npm run bench` (BENCH_ONLY=gateways):
 *  - a bundle at 100 000 rules raw and gzipped, and the delta of a one-rule change (gzipped: what goes on the wire
 *    to a gateway holding the previous version; goal ≤ 50 kB), made by the code the console answers with
 *    (@palisade/gateway-config/bundle-delta);
 *  - a policy save in a tenant of 10 000 rules (20 policies of 500) with 100 gateways long-polling (gzip and
 *    deltas, as the reference gateway asks): the save's answer (goal ≤ 1 000 ms) and the time until every gateway
 *    held the new version after it (goal ≤ 1 500 ms), and the bytes each gateway received. The administrator and
 *    the gateways run in a worker thread, as real clients run apart from the console: on the console's own event
 *    loop the time would be the console's work for the gateways, not the save's answer.
 */
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { generateKeyPair, nftablesRuleset, rpzZone, squidAcl } from '@palisade/gateway-config';
import { bundleParts, makeDelta } from '@palisade/gateway-config/bundle-delta';
import type { EngineInput } from '@palisade/policy-engine';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { ms, percentile } from './common';

const GATEWAYS = Number(process.env.BENCH_GATEWAYS ?? 100);
const SAVES = Number(process.env.BENCH_WIRE_SAVES ?? 5);
const kB = (bytes: number) => Number((bytes / 1024).toFixed(1));

/** `rules` rules, 1 000 a policy, of the kinds each layer compiles (domains, networks, URLs). */
function input(rules: number, changed = -1): EngineInput {
  const policies = [];
  for (let p = 0; p * 1000 < rules; p++) {
    const list = [];
    for (let i = p * 1000; i < Math.min(rules, (p + 1) * 1000); i++) {
      const kind = i % 4;
      const host = i === changed ? `changed${i}` : `host${i}`;
      list.push({
        id: `r${i}`,
        name: `Rule ${i}`,
        type: kind <= 1 ? 'dmn' : kind === 2 ? 'ROUTE' : 'url',
        action: i % 5 === 0 ? 'allow' : 'block',
        url:
          kind === 2
            ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
            : kind === 3
              ? `site${i}.example/path${i}`
              : `${host}.example`,
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
      type: 'other',
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

/** The tenant's part of a bundle as the console sends it (its artefacts, engine input and `skipped`). */
function bundleOf(engine: EngineInput, serial: number, version: string) {
  return {
    version,
    createdAt: new Date(serial * 1000).toISOString(),
    artefacts: {
      nftables: nftablesRuleset(engine).text,
      rpz: rpzZone(engine, { serial }).text,
      squid: squidAcl(engine).text,
    },
    policy: engine,
    skipped: [],
  };
}

function sizes(rules: number) {
  // A one-rule change (a domain rule's name), with the new RPZ serial a new zone gets.
  const before = bundleOf(input(rules), 1_700_000_000, 'a'.repeat(16));
  const after = bundleOf(input(rules, Math.floor(rules / 2) + 1), 1_700_000_060, 'b'.repeat(16));
  const raw = JSON.stringify(before);
  const started = performance.now();
  const delta = JSON.stringify(
    makeDelta(
      { version: before.version, parts: bundleParts(before) },
      { version: after.version, parts: bundleParts(after) },
    ),
  );
  const deltaMs = performance.now() - started;
  const deltaGzip = gzipSync(delta).length;
  return {
    rules,
    'bundle (kB)': kB(Buffer.byteLength(raw)),
    'bundle gzip (kB)': kB(gzipSync(raw).length),
    'one-rule delta (kB)': kB(Buffer.byteLength(delta)),
    'delta gzip (kB)': kB(deltaGzip),
    'goal (kB)': rules === 100_000 ? 50 : '',
    'delta made in (ms)': ms(deltaMs),
  };
}

/** The administrator and the gateways, in a worker of their own (plain JavaScript, run with eval). */
const CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, admin, policyId, credentials, saves } = workerData;
const rulesOf = (p, change) => Array.from({ length: 500 }, (_, i) => ({
  name: 'R' + p + '-' + i, type: i % 2 ? 'dmn' : 'ROUTE', action: 'block',
  url: i % 2 ? 'h' + p + '-' + i + (i === 1 ? change : '') + '.example' : '10.' + p + '.' + (i >> 8) + '.' + (i & 255),
}));
const headers = (credential, have) => ({
  authorization: 'Bearer ' + credential, 'accept-encoding': 'gzip',
  ...(have ? { 'if-none-match': '"' + have + '"', 'a-im': 'palisade-lines' } : {}),
});
(async () => {
  const versions = [];
  let firstBytes = 0;
  for (const credential of credentials) {
    const res = await fetch(base + '/api/gw/bundle?wait=0', { headers: headers(credential, null) });
    firstBytes = Number(res.headers.get('content-length'));
    versions.push((await res.json()).version);
  }
  const results = [];
  for (let save = 0; save < saves; save++) {
    const polls = credentials.map(async (credential, i) => {
      const res = await fetch(base + '/api/gw/bundle?wait=30', { headers: headers(credential, versions[i]) });
      const at = performance.now();
      const bytes = Number(res.headers.get('content-length'));
      const body = await res.json();
      versions[i] = body.version ?? versions[i];
      return { at, status: res.status, bytes };
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    const res = await fetch(base + '/api/policy/bench/' + policyId, {
      method: 'PUT', headers: admin,
      body: JSON.stringify({ type: 'other', name: 'P0', rules: rulesOf(0, '-' + save) }),
    });
    await res.arrayBuffer();
    const answered = performance.now();
    if (res.status !== 200) throw new Error('saving answered ' + res.status);
    const got = await Promise.all(polls);
    results.push({
      saveMs: answered - started,
      heldMs: got.map((g) => g.at - answered),
      deltas: got.filter((g) => g.status === 226).length,
      bytes: got.map((g) => g.bytes),
    });
  }
  parentPort.postMessage({ firstBytes, results });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

async function saveAtSize() {
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
    const ids: string[] = [];
    for (let p = 0; p < 20; p++) {
      const rules = Array.from({ length: 500 }, (_, i) => ({
        name: `R${p}-${i}`,
        type: i % 2 ? 'dmn' : 'ROUTE',
        action: 'block',
        url: i % 2 ? `h${p}-${i}.example` : `10.${p}.${i >> 8}.${i & 255}`,
      }));
      const res = await fetch(`${base}/api/policy/bench`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ type: 'other', name: `P${p}`, rules }),
      });
      if (res.status !== 201) throw new Error(`creating a policy answered ${res.status}`);
      ids.push(((await res.json()) as { policy: { id: string } }).policy.id);
    }
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
          publicKey: generateKeyPair().publicKey,
          hostname: `gw${i}.bench`,
          version: '1.0.0',
        }),
      });
      credentials.push(((await enrolled.json()) as { credential: string }).credential);
    }
    const worker = new Worker(CLIENTS, {
      eval: true,
      workerData: { base, admin, policyId: ids[0], credentials, saves: SAVES },
    });
    const outcome = await new Promise<{
      error?: string;
      firstBytes: number;
      results: { saveMs: number; heldMs: number[]; deltas: number; bytes: number[] }[];
    }>((resolve) => worker.once('message', resolve));
    await worker.terminate();
    if (outcome.error) throw new Error(outcome.error);
    const saves = outcome.results.map((r) => r.saveMs).sort((a, b) => a - b);
    const held = outcome.results.map((r) => Math.max(...r.heldMs)).sort((a, b) => a - b);
    const bytes = outcome.results.flatMap((r) => r.bytes).sort((a, b) => a - b);
    return {
      rules: 10_000,
      gateways: GATEWAYS,
      saves: SAVES,
      'save p50 (ms)': ms(percentile(saves, 50)),
      'save max (ms)': ms(saves.at(-1) ?? 0),
      'save goal (ms)': 1000,
      'all held after (max, ms)': ms(held.at(-1) ?? 0),
      'held goal (ms)': 1500,
      'as deltas': `${outcome.results.reduce((n, r) => n + r.deltas, 0)}/${GATEWAYS * SAVES}`,
      'per gateway p50 (kB)': kB(percentile(bytes, 50)),
      'first full bundle gzip (kB)': kB(outcome.firstBytes),
    };
  } finally {
    await close();
  }
}

export async function benchBundleWire(): Promise<void> {
  console.info(
    '\nGateways: bundles on the wire (a one-rule change as a delta to a gateway holding the version before)',
  );
  console.table([sizes(10_000), sizes(100_000)]);
  console.info(
    `\nGateways: a policy save in a tenant of 10 000 rules with ${GATEWAYS} gateways long-polling (gzip, deltas; PGlite):`,
  );
  console.table([await saveAtSize()]);
}
