import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecisionEventData, GW_EVENTS_MAX_BATCH, GwEvent } from '@palisade/contracts';
import { generateKeyPair } from '@palisade/gateway-config/keys';
import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AgentEvent, runAgent } from './agent';
import { engineInputOf, rosterOf } from './simulate';

/**
 * `--simulate-traffic`: the agent against a scripted server posts NDJSON decision events of the bundle's policy at
 * about the asked rate, in batches of at most GW_EVENTS_MAX_BATCH lines, recompiles when the bundle changes, backs
 * off when the server fails and stops with the agent.
 */
const peer = generateKeyPair().publicKey;
const dirs: string[] = [];

const OBJECTS = {
  categories: [
    { id: 'gambling', name: 'Gambling', domains: ['bet365.com', 'pokerstars.com'] },
    { id: 'social-networking', name: 'Social networking', domains: ['facebook.com', 'linkedin.com'] },
  ],
};
const POLICIES = {
  v1: makeInput(
    [
      makePolicy('p1', [
        makeRule('dmn', '', 'block', {
          id: 'no-social',
          name: 'No social',
          categories: ['social-networking'],
        }),
      ]),
    ],
    OBJECTS,
  ),
  v2: makeInput(
    [makePolicy('p2', [makeRule('dmn', '*', 'block', { id: 'nothing', name: 'Nothing at all' })])],
    OBJECTS,
  ),
};

interface Post {
  at: number;
  contentType: string | undefined;
  lines: unknown[];
}
const script = {
  current: 'v1' as keyof typeof POLICIES,
  /** Statuses of the next event posts before they are accepted. */
  eventFailures: [] as number[],
  posts: [] as Post[],
};
let server: Server;
let url = '';

const bundleOf = (version: keyof typeof POLICIES) => ({
  version,
  createdAt: new Date().toISOString(),
  artefacts: {
    wireguard: `[Interface]\nAddress = 100.100.0.1/24\nListenPort = 51820\nPrivateKey = @PALISADE_GATEWAY_PRIVATE_KEY@\n\n[Peer]\nPublicKey = ${peer}\n`,
    nftables: `table inet palisade {}\n# ${version}\n`,
    rpz: `$ORIGIN rpz.palisade.\n; ${version}\n`,
    squid: `# ${version}\n`,
  },
  policy: POLICIES[version],
  skipped: [],
});

function handle(request: IncomingMessage, response: ServerResponse, body: string) {
  const json = (status: number, value: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  if (request.url === '/api/gw/enrol') {
    return json(201, {
      gatewayId: '7d1c0f4e-0000-4000-8000-000000000002',
      tenant: 't1',
      credential: 'gw_sim',
      wireguard: { address: '100.100.0.1/24', listenPort: 51820 },
      heartbeatMs: 200,
    });
  }
  if (request.headers.authorization !== 'Bearer gw_sim') return json(401, { message: 'no' });
  if (request.url?.startsWith('/api/gw/bundle')) {
    const have = request.headers['if-none-match']?.replaceAll('"', '') ?? null;
    if (have === script.current) return setTimeout(() => response.writeHead(304).end(), 100);
    return json(200, bundleOf(script.current));
  }
  if (request.url === '/api/gw/heartbeat')
    return json(200, { currentVersion: script.current, upgrade: null });
  if (request.url === '/api/gw/events') {
    const failure = script.eventFailures.shift();
    if (failure) return json(failure, { message: 'busy' });
    const lines = body.split('\n').map((line) => JSON.parse(line));
    script.posts.push({ at: Date.now(), contentType: request.headers['content-type'], lines });
    return json(202, { accepted: lines.length, duplicates: 0 });
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
afterEach(() => {
  script.current = 'v1';
  script.eventFailures = [];
  script.posts = [];
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function until<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function start(simulateTraffic: number) {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-sim-'));
  dirs.push(dir);
  const stop = new AbortController();
  const events: AgentEvent[] = [];
  const logs: string[] = [];
  const done = runAgent({
    server: url,
    token: 'gwe_sim',
    dir,
    simulateTraffic,
    backoff: { initialMs: 20, maxMs: 200 },
    signal: stop.signal,
    log: (line) => logs.push(line),
    onEvent: (event) => events.push(event),
  });
  return { stop, events, logs, done };
}

const received = () =>
  script.posts.flatMap((p) => p.lines as { at: string; data: Record<string, unknown> }[]);

describe('--simulate-traffic', () => {
  it('posts valid NDJSON decision events of the policy at about the rate, and follows the bundle', async () => {
    script.eventFailures = [503];
    const rate = 200;
    const agent = start(rate);
    await until('v1 enforced', 5_000, () => agent.events.find((e) => e.type === 'enforced'));
    const enforcedAt = Date.now();
    // The first post fails: logged, told as an error, tried again.
    await until('an error while simulating', 5_000, () =>
      agent.events.find((e) => e.type === 'error' && e.during === 'simulate'),
    );
    expect(agent.logs.some((line) => /simulated traffic: .*503.*retrying/.test(line))).toBe(true);
    await until('3 s of events', 8_000, () => (received().length >= 3 * rate ? true : undefined));
    const elapsed = (Date.now() - enforcedAt) / 1000;

    for (const post of script.posts) {
      expect(post.contentType).toBe('application/x-ndjson');
      expect(post.lines.length).toBeLessThanOrEqual(GW_EVENTS_MAX_BATCH);
    }
    const events = received();
    for (const event of events) {
      expect(GwEvent.safeParse(event).success, JSON.stringify(event)).toBe(true);
      expect(event).toMatchObject({ kind: 'decision' });
      expect(DecisionEventData.safeParse(event.data).success, JSON.stringify(event)).toBe(true);
    }
    expect(new Set(events.map((e) => (e as unknown as { id: string }).id)).size).toBe(events.length);
    // About the rate: over the events' own times, and against the clock (posted once a second).
    const times = events.map((e) => Date.parse(e.at)).sort((a, b) => a - b);
    const span = (times.at(-1)! - times[0]) / 1000;
    expect(events.length / span).toBeGreaterThan(rate * 0.8);
    expect(events.length / span).toBeLessThan(rate * 1.2);
    expect(events.length).toBeLessThan(rate * (elapsed + 1) * 1.2);
    expect(Math.abs(times.at(-1)! - Date.now())).toBeLessThan(3_000);
    // Told of each batch posted (the last one may still be on its way back).
    const posted = agent.events.reduce((n, e) => n + (e.type === 'simulated' ? e.posted : 0), 0);
    expect(posted).toBeLessThanOrEqual(events.length);
    expect(posted).toBeGreaterThanOrEqual(events.length - script.posts.at(-1)!.lines.length);

    // Decided by the bundle's policy: social networks blocked by its rule, the rest allowed.
    const social = events.filter((e) => e.data.category === 'Social networking');
    expect(social.length).toBeGreaterThan(0);
    for (const e of social) expect(e.data).toMatchObject({ decision: 'block', ruleId: 'no-social' });
    expect(events.some((e) => e.data.decision === 'allow' && e.data.layer === 'http')).toBe(true);
    // Anonymous: the bundle names nobody; and marked as made up, never as what a gateway saw.
    for (const e of events)
      expect(e.data).toMatchObject({ userId: null, deviceId: null, source: 'simulated' });

    // A new bundle: its policy decides what follows.
    script.current = 'v2';
    await until('v2 enforced', 5_000, () =>
      agent.events.find((e) => e.type === 'enforced' && e.version === 'v2'),
    );
    const switched = Date.now();
    await until('events after v2', 5_000, () =>
      received().filter((e) => Date.parse(e.at) > switched + 1_000).length > 50 ? true : undefined,
    );
    const after = received().filter((e) => Date.parse(e.at) > switched + 1_000 && e.data.layer === 'dns');
    expect(after.length).toBeGreaterThan(0);
    for (const e of after) expect(e.data).toMatchObject({ decision: 'block', ruleId: 'nothing' });

    // SIGTERM: the agent stops, and so do the posts.
    agent.stop.abort();
    await expect(agent.done).resolves.toMatchObject({ enforcedVersion: 'v2' });
    const count = script.posts.length;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(script.posts.length).toBe(count);
  });

  it('splits a second of a high rate into batches of at most the batch size', async () => {
    const agent = start(7_000);
    await until('two seconds of events', 10_000, () => (received().length >= 14_000 ? true : undefined));
    agent.stop.abort();
    await agent.done;
    const sizes = script.posts.map((p) => p.lines.length);
    expect(Math.max(...sizes)).toBe(GW_EVENTS_MAX_BATCH);
    expect(sizes.every((n) => n <= GW_EVENTS_MAX_BATCH)).toBe(true);
  });

  it('reads the roster and the engine input of a bundle defensively', () => {
    const bundle = bundleOf('v1');
    expect(rosterOf(bundle)).toEqual([]);
    const device = '1f0e5a52-0000-4000-8000-000000000001';
    const user = '1f0e5a52-0000-4000-8000-000000000002';
    expect(
      rosterOf({
        ...bundle,
        identities: [
          { deviceId: device, userId: user, groups: ['g', 3] },
          { deviceId: 'not-a-uuid', userId: user, groups: [] },
          { deviceId: device, userId: 'x' },
        ],
      } as typeof bundle),
    ).toEqual([
      { deviceId: device, userId: user, groups: ['g'], address: null },
      { deviceId: device, userId: null, groups: [], address: null },
    ]);
    expect(engineInputOf({})).toBeNull();
    expect(engineInputOf(null)).toBeNull();
    expect(engineInputOf({ policies: [], objects: {} })).toEqual({
      policies: [],
      objects: { apps: [], categories: [], feeds: [], locations: [] },
    });
  });
});
