import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  BUNDLE_DELTA_CONTENT_TYPE,
  BUNDLE_DELTA_IM,
  bundleParts,
  makeDelta,
} from '@palisade/gateway-config/bundle-delta';
import { generateKeyPair } from '@palisade/gateway-config/keys';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, runAgent } from './agent';

/**
 * A gateway that recovers, against a fake console on a real HTTP port that goes down and comes back: it enforces
 * the bundle on disk when started with the console down, long-polls at once when the console is back (its
 * back-off cut short), and takes bundles gzipped and as deltas from the version it holds — a delta that does not
 * check out is never applied, the full bundle is fetched instead.
 */
const peer = generateKeyPair().publicKey;
const rules = (count: number, version: string) =>
  Array.from({ length: count }, (_, i) => `  ip daddr 10.0.${i >> 8}.${i & 255} drop # r${i}`)
    .concat([`# ${version}`])
    .join('\n');
const bundleOf = (version: string) => ({
  version,
  createdAt: '2026-12-02T10:00:00.000Z',
  artefacts: {
    wireguard: `[Interface]\nAddress = 100.100.0.1/24\nListenPort = 51820\nPrivateKey = @PALISADE_GATEWAY_PRIVATE_KEY@\n\n[Peer]\nPublicKey = ${peer}\n`,
    nftables: rules(2_000, version),
    rpz: `$ORIGIN rpz.palisade.\n; ${version}\n`,
    squid: `# ${version}\n`,
  },
  policy: { policies: [{ id: 'p1', name: 'Policy', rules: [{ id: 'r1' }] }] },
  skipped: [],
});

interface Console {
  url: string;
  current: string;
  /** How to answer a gateway that holds a version and asks for a delta. */
  delta: 'good' | 'corrupt' | 'none';
  /** Each bundle request's If-None-Match, A-IM and Accept-Encoding, and what was answered. */
  requests: { have: string | null; aIm: string | null; encoding: string | null; status: number }[];
  up(): Promise<void>;
  down(): Promise<void>;
}

let consoles: Console[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of consoles) await c.down();
  consoles = [];
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A console on a fixed port (so it can come back where it was). */
async function fakeConsole(): Promise<Console> {
  let server: Server | null = null;
  let port = 0;
  const c: Console = {
    url: '',
    current: 'v1',
    delta: 'none',
    requests: [],
    async up() {
      server = createServer((request, response) => {
        request.resume();
        request.on('end', () => handle(request, response));
      });
      const listening = server;
      await new Promise<void>((resolve) => listening.listen(port, '127.0.0.1', resolve));
      port = (listening.address() as AddressInfo).port;
      c.url = `http://127.0.0.1:${port}`;
    },
    async down() {
      const closing = server;
      server = null;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise((resolve) => closing.close(resolve));
    },
  };
  function handle(request: IncomingMessage, response: ServerResponse) {
    const json = (status: number, value: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (request.url === '/api/gw/enrol') {
      return json(201, {
        gatewayId: '7d1c0f4e-0000-4000-8000-000000000002',
        tenant: 't1',
        credential: 'gw_recovery',
        wireguard: { address: '100.100.0.1/24', listenPort: 51820 },
        heartbeatMs: 5_000,
      });
    }
    if (request.url === '/api/gw/heartbeat') return json(200, { currentVersion: c.current, upgrade: null });
    if (request.url === '/api/gw/events') return json(202, { accepted: 0, duplicates: 0, rejected: 0 });
    if (!request.url?.startsWith('/api/gw/bundle')) return json(404, {});
    const have = request.headers['if-none-match']?.replaceAll('"', '') ?? null;
    const aIm = (request.headers['a-im'] as string | undefined) ?? null;
    const encoding = request.headers['accept-encoding'] ?? null;
    const record = (status: number) => c.requests.push({ have, aIm, encoding, status });
    // Unchanged: 304 at once for ?wait=0, else held (the test moves on before the 30 s are up).
    if (have === c.current) {
      if (request.url.includes('wait=0')) {
        record(304);
        return response.writeHead(304).end();
      }
      return void record(0);
    }
    if (have && aIm === BUNDLE_DELTA_IM && c.delta !== 'none') {
      const delta = makeDelta(
        { version: have, parts: bundleParts(bundleOf(have)) },
        { version: c.current, parts: bundleParts(bundleOf(c.current)) },
      );
      if (c.delta === 'corrupt') delta.sha256 = '0'.repeat(64);
      record(226);
      return response
        .writeHead(226, {
          'content-type': BUNDLE_DELTA_CONTENT_TYPE,
          'content-encoding': 'gzip',
          im: BUNDLE_DELTA_IM,
          'delta-base': `"${have}"`,
          etag: `"${c.current}"`,
        })
        .end(gzipSync(JSON.stringify(delta)));
    }
    record(200);
    // Two gzip members, as the console sends them (the tenant's part once per version, the gateway's own).
    const text = JSON.stringify(bundleOf(c.current));
    const cut = Math.floor(text.length / 2);
    response
      .writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        etag: `"${c.current}"`,
      })
      .end(Buffer.concat([gzipSync(text.slice(0, cut)), gzipSync(text.slice(cut))]));
  }
  await c.up();
  consoles.push(c);
  return c;
}

async function until<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function start(c: Console, dir: string, backoff = { initialMs: 20, maxMs: 100 }, heartbeatMs?: number) {
  const events: AgentEvent[] = [];
  const stop = new AbortController();
  const done = runAgent({
    server: c.url,
    token: 'gwe_recovery',
    dir,
    backoff,
    ...(heartbeatMs ? { heartbeatMs } : {}),
    log: () => {},
    onEvent: (event) => events.push(event),
    signal: stop.signal,
  });
  done.catch(() => {});
  return {
    events,
    enforced: (version: string) =>
      until(`${version} enforced`, 10_000, () =>
        events.find((e) => e.type === 'enforced' && e.version === version),
      ),
    async stop() {
      stop.abort();
      await done;
    },
  };
}

const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-recovery-'));
  dirs.push(dir);
  return dir;
};

describe('a gateway started while the console is unreachable', () => {
  it('enforces its stored bundle at once, and long-polls as soon as the console is back', async () => {
    const c = await fakeConsole();
    const dir = newDir();
    const first = start(c, dir);
    await first.enforced('v1');
    await first.stop();

    await c.down();
    // A back-off of 10 s: only the console's return (a heartbeat answered) can end it sooner.
    const second = start(c, dir, { initialMs: 10_000, maxMs: 10_000 });
    try {
      const restored = await until('the stored bundle enforced', 5_000, () =>
        second.events.find((e) => e.type === 'restored'),
      );
      expect(restored).toMatchObject({ type: 'restored', version: 'v1' });
      // Before anything was answered: the console is down.
      await until('a failed fetch', 5_000, () =>
        second.events.find((e) => e.type === 'error' && e.during === 'bundle'),
      );
      expect(second.events.findIndex((e) => e.type === 'restored')).toBeLessThan(
        second.events.findIndex((e) => e.type === 'error'),
      );
      expect(second.events.some((e) => e.type === 'enforced')).toBe(false);

      c.current = 'v2';
      const requestsBefore = c.requests.length;
      await c.up();
      const back = Date.now();
      await second.enforced('v2');
      // Well within the 10 s back-off: a heartbeat (tried every second while it failed) cut it short.
      expect(Date.now() - back).toBeLessThan(5_000);
      expect(c.requests.slice(requestsBefore)[0]).toMatchObject({ have: 'v1', status: 200 });
      expect(readFileSync(join(dir, 'nftables.nft'), 'utf8')).toContain('# v2');
    } finally {
      await second.stop();
    }
  });

  it('does not enforce a stored bundle of another enrolment', async () => {
    const c = await fakeConsole();
    const dir = newDir();
    const first = start(c, dir);
    await first.enforced('v1');
    await first.stop();
    // A new token: enrols again; what is on disk was the old gateway's.
    c.current = 'v3';
    const events: AgentEvent[] = [];
    const stop = new AbortController();
    const done = runAgent({
      server: c.url,
      token: 'gwe_another',
      dir,
      backoff: { initialMs: 20, maxMs: 100 },
      log: () => {},
      onEvent: (event) => events.push(event),
      signal: stop.signal,
    });
    await until('v3 enforced', 10_000, () => events.find((e) => e.type === 'enforced' && e.version === 'v3'));
    stop.abort();
    await done;
    expect(events.some((e) => e.type === 'restored')).toBe(false);
  });
});

describe('bundles on the wire', () => {
  it('asks for gzip and deltas, and applies a delta from the version it holds', async () => {
    const c = await fakeConsole();
    const gateway = start(c, newDir(), undefined, 200);
    try {
      await gateway.enforced('v1');
      expect(c.requests[0]).toMatchObject({ have: null, aIm: null, encoding: 'gzip', status: 200 });
      c.delta = 'good';
      await until('a long-poll holding v1', 5_000, () =>
        c.requests.find((r) => r.have === 'v1' && r.aIm === BUNDLE_DELTA_IM),
      );
      c.current = 'v2';
      // The heartbeat names v2: the long-poll in flight is given up and a new one gets the delta.
      await gateway.enforced('v2');
      const answered = c.requests.filter((r) => r.status === 200 || r.status === 226);
      expect(answered.at(-1)).toMatchObject({ have: 'v1', aIm: BUNDLE_DELTA_IM, status: 226 });
      expect(gateway.events.find((e) => e.type === 'bundle' && e.version === 'v2')).toBeDefined();
    } finally {
      await gateway.stop();
    }
  });

  it('never applies a delta whose result does not match its hash: it fetches the full bundle', async () => {
    const c = await fakeConsole();
    const dir = newDir();
    const gateway = start(c, dir, undefined, 200);
    try {
      await gateway.enforced('v1');
      c.delta = 'corrupt';
      c.current = 'v2';
      await gateway.enforced('v2');
      const tail = c.requests.filter((r) => r.status === 200 || r.status === 226).slice(-2);
      expect(tail).toEqual([
        expect.objectContaining({ have: 'v1', aIm: BUNDLE_DELTA_IM, status: 226 }),
        expect.objectContaining({ have: 'v1', aIm: null, status: 200 }),
      ]);
      expect(JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8'))).toEqual(bundleOf('v2'));
    } finally {
      await gateway.stop();
    }
  });
});
