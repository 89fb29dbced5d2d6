import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair } from '@palisade/gateway-config/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentEvent, runAgent } from './agent';
import { GatewayRevokedError } from './client';

/**
 * The agent's loop against a scripted server: retries after a dropped connection and a 503, re-fetches at once
 * when a heartbeat names a version its (lost) long-poll never delivered, and stops on 401. The real server is
 * apps/server/src/modules/gateways/reference-gateway.test.ts.
 */
const dir = mkdtempSync(join(tmpdir(), 'pgw-agent-'));
const peer = generateKeyPair().publicKey;
const script = {
  current: 'v1',
  /** Answers to the next bundle requests before the normal one: 'drop' (reset the connection) or a status. */
  failures: [] as ('drop' | number)[],
  revoked: false,
  enrolments: 0,
  /** The body of the last enrolment. */
  enrolled: null as Record<string, unknown> | null,
  heartbeats: [] as { enforcedVersion: string | null; metrics: Record<string, number>; latencyMs?: number }[],
  /** The If-None-Match of every bundle request. */
  polls: [] as (string | null)[],
  /** Statuses of the next event posts before they are taken. */
  eventFailures: [] as number[],
  /** The events taken, in order. */
  events: [] as { id: string; at: string; kind: string; data: Record<string, unknown> }[],
};
let server: Server;
let url = '';

const bundleOf = (version: string) => ({
  version,
  createdAt: new Date().toISOString(),
  artefacts: {
    wireguard: `[Interface]\nAddress = 100.100.0.1/24\nListenPort = 51820\nPrivateKey = @PALISADE_GATEWAY_PRIVATE_KEY@\n\n[Peer]\nPublicKey = ${peer}\n`,
    nftables: `table inet palisade {}\n# ${version}\n`,
    rpz: `$ORIGIN rpz.palisade.\n; ${version}\n`,
    squid: `# ${version}\n`,
  },
  policy: {},
  skipped: [],
});

function handle(request: IncomingMessage, response: ServerResponse, body: string) {
  const json = (status: number, value: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  if (request.url === '/api/gw/enrol') {
    script.enrolments++;
    script.enrolled = JSON.parse(body);
    return json(201, {
      gatewayId: '7d1c0f4e-0000-4000-8000-000000000001',
      tenant: 't1',
      credential: 'gw_test',
      wireguard: { address: '100.100.0.1/24', listenPort: 51820 },
      heartbeatMs: 100,
    });
  }
  if (script.revoked || request.headers.authorization !== 'Bearer gw_test') {
    return json(401, { message: 'A valid gateway credential is required.' });
  }
  if (request.url?.startsWith('/api/gw/bundle')) {
    const failure = script.failures.shift();
    if (failure === 'drop') return request.socket.destroy();
    if (failure) return json(failure, { message: 'busy' });
    const have = request.headers['if-none-match']?.replaceAll('"', '') ?? null;
    script.polls.push(have);
    // A long-poll for the current version is "lost": held until the agent gives up on it.
    if (have === script.current) return;
    return json(200, bundleOf(script.current));
  }
  if (request.url === '/api/gw/events') {
    const failure = script.eventFailures.shift();
    if (failure) return json(failure, { message: 'busy' });
    const lines = body.split('\n').map((line) => JSON.parse(line));
    script.events.push(...lines);
    return json(202, { accepted: lines.length, duplicates: 0, rejected: 0 });
  }
  if (request.url === '/api/gw/heartbeat') {
    script.heartbeats.push(JSON.parse(body));
    return json(200, { currentVersion: script.current, upgrade: null });
  }
  json(404, {});
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => handle(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function until<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the agent loop', () => {
  it('retries, re-fetches when a heartbeat says it is behind, and stops on 401', async () => {
    script.failures = ['drop', 503];
    const events: AgentEvent[] = [];
    const done = runAgent({
      server: url,
      token: 'gwe_test',
      endpoint: 'gw.example.net:51820',
      dir,
      backoff: { initialMs: 20, maxMs: 100 },
      log: () => {},
      onEvent: (event) => events.push(event),
    });
    done.catch(() => {});
    await until('v1 enforced', 5_000, () => events.find((e) => e.type === 'enforced' && e.version === 'v1'));
    expect(events.filter((e) => e.type === 'error' && e.during === 'bundle')).toHaveLength(2);
    expect(script.enrolments).toBe(1);
    // --endpoint: where devices reach it, sent at enrolment.
    expect(script.enrolled).toMatchObject({ token: 'gwe_test', endpoint: 'gw.example.net:51820' });
    expect(readFileSync(join(dir, 'wireguard.conf'), 'utf8')).not.toContain('@PALISADE');
    await until('v1 reported', 2_000, () => script.heartbeats.find((b) => b.enforcedVersion === 'v1'));
    const beat = script.heartbeats.at(-1)!;
    expect(beat.metrics).toMatchObject({ throughputBps: 0, activePeers: 0 });
    expect(beat.metrics.uptimeSeconds).toBeGreaterThan(0);
    // The first heartbeat has no round trip to report; the later ones the previous one's.
    expect(script.heartbeats[0].latencyMs).toBeUndefined();
    expect(beat.latencyMs).toBeGreaterThan(0);
    expect(beat.latencyMs).toBeLessThan(1_000);
    // The long-poll now waits for ever; the server moves on without telling it.
    await until('a long-poll with v1', 2_000, () => (script.polls.includes('v1') ? true : undefined));
    const changed = Date.now();
    script.current = 'v2';
    await until('v2 enforced', 2_000, () => events.find((e) => e.type === 'enforced' && e.version === 'v2'));
    // Within a heartbeat or two (100 ms each), not the 30 s of the long-poll.
    expect(Date.now() - changed).toBeLessThan(1_000);
    expect(readFileSync(join(dir, 'rpz.zone'), 'utf8')).toContain('v2');

    script.revoked = true;
    await expect(done).rejects.toBeInstanceOf(GatewayRevokedError);
    await expect(done).rejects.toThrow(/credential \(401: A valid gateway credential is required\.\)/);
  });
});

describe('connection events', () => {
  it('posts what the WireGuard samples show after heartbeats, keeping them while the server fails', async () => {
    Object.assign(script, {
      current: 'v1',
      revoked: false,
      failures: [],
      eventFailures: [503, 503],
      events: [],
    });
    const eventsDir = mkdtempSync(join(tmpdir(), 'pgw-agent-events-'));
    const handshake = Math.floor(Date.now() / 1000) - 5;
    /** The device's peer while it is there; then it is removed (the dump without it). */
    let isPeerThere = true;
    const wgDump = async () =>
      [
        `cHJpdmF0ZQ==\t${generateKeyPair().publicKey}\t51820\toff`,
        ...(isPeerThere
          ? [
              [peer, '(none)', '198.51.100.7:41641', '100.64.0.2/32', handshake, 4_000, 9_000, 'off'].join(
                '\t',
              ),
            ]
          : []),
      ].join('\n');
    const events: AgentEvent[] = [];
    const logs: string[] = [];
    const stop = new AbortController();
    const done = runAgent({
      server: url,
      token: 'gwe_test',
      dir: eventsDir,
      backoff: { initialMs: 20, maxMs: 100 },
      log: (line) => logs.push(line),
      onEvent: (event) => events.push(event),
      wgDump,
      signal: stop.signal,
    });
    try {
      const connected = await until('the connected event taken', 10_000, () =>
        script.events.find((e) => e.data.action === 'connected'),
      );
      expect(connected).toMatchObject({
        kind: 'connection',
        at: new Date(handshake * 1000).toISOString(),
        data: { peer, endpoint: '198.51.100.7:41641', deviceId: null, userId: null },
      });
      // Two posts failed: the event waited for the next heartbeats, one log line said so.
      expect(events.filter((e) => e.type === 'error' && e.during === 'connections')).toHaveLength(2);
      expect(logs.filter((line) => line.startsWith('connection events:'))).toEqual([
        expect.stringMatching(/^connection events: .*503.*; 1 kept, posted with the next heartbeats$/),
        'connection events: posting again',
      ]);
      isPeerThere = false;
      await until('the disconnected event taken', 10_000, () =>
        script.events.find((e) => e.data.action === 'disconnected'),
      );
      expect(script.events.map((e) => e.data.action)).toEqual(['connected', 'disconnected']);
      expect(script.events[1].data).toMatchObject({ bytesIn: 4_000, bytesOut: 9_000 });
      expect(script.events[1].data.durationMs).toBeGreaterThanOrEqual(5_000);
    } finally {
      stop.abort();
      await done;
      rmSync(eventsDir, { recursive: true, force: true });
    }
  });
});
