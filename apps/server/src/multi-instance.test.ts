import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair } from '@palisade/gateway-config';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, useFixture } from '../test/helper';
import { adminEvents } from './db/schema';
import { runScheduledPurge } from './modules/events/events.service';
import { auth, rule } from './modules/policies/policies.test-kit';
import { refreshDueFeeds } from './modules/policy-objects/feeds.service';

/**
 * Several server instances on one database, as behind a load balancer. On PostgreSQL each instance has its own
 * connection pool and listener; on PGlite they share the one database object and nothing else (each has its
 * own compiled policies and its own change bus), so a decision that leans on process state fails on both.
 */
// The feed server below listens on loopback, which feeds may only reach when private networks are allowed.
const f = useFixture({ feedAllowPrivateNetworks: true });
let b: Instance;
let owner: string;

/** A local feed server counting the requests for each path. */
const hits = new Map<string, number>();
let server: Server;
let base: string;

beforeAll(async () => {
  b = await f.startInstance();
  owner = await f.signIn('admin@acme.test');
  server = createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(hits.get(req.url ?? '') === 1 ? '192.0.2.10\n' : '192.0.2.10\n192.0.2.11\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

async function decisionOn(app: FastifyInstance, destination: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/policy/simulate/acme',
    headers: auth(owner),
    payload: { request: { destination } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().decision;
}

describe('policy changes reach every instance', () => {
  it('a change made through instance A decides on instance B within a second, and back', async () => {
    // Both instances have compiled the tenant's policy and decided with it.
    expect(await decisionOn(f.app, 'www.two.example')).toBe('allow');
    expect(await decisionOn(b.app, 'www.two.example')).toBe('allow');

    const created = await f.app.inject({
      method: 'POST',
      url: '/api/policy/acme',
      headers: auth(owner),
      payload: { type: 'other', name: 'Two instances', rules: [rule({ url: 'two.example' })] },
    });
    expect(created.statusCode, created.body).toBe(201);
    await expect.poll(() => decisionOn(b.app, 'www.two.example'), { timeout: 1000 }).toBe('block');

    const disabled = await b.app.inject({
      method: 'PUT',
      url: `/api/policy/acme/${created.json().policy.id}/enabled`,
      headers: auth(owner),
      payload: { enabled: false },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    await expect.poll(() => decisionOn(f.app, 'www.two.example'), { timeout: 1000 }).toBe('allow');
  });

  it('an instance that hears nothing still decides with the change on its very next request', async () => {
    // Without its listener, instance C only has the version it checks before deciding.
    const c = await f.startInstance();
    await c.changes.close();
    expect(await decisionOn(c.app, 'deaf.example')).toBe('allow');
    const created = await f.app.inject({
      method: 'POST',
      url: '/api/policy/acme',
      headers: auth(owner),
      payload: { type: 'other', name: 'Deaf instance', rules: [rule({ url: 'deaf.example' })] },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await decisionOn(c.app, 'deaf.example')).toBe('block');
  });
});

describe('gateways hear of a change on any instance', () => {
  it('a gateway long-polling instance B gets the bundle a save through instance A makes', async () => {
    const created = await f.app.inject({
      method: 'POST',
      url: '/api/cybernodes/acme',
      headers: auth(owner),
      payload: { name: 'Multi-instance edge', kind: 'cgw', region: 'Berlin' },
    });
    const enrolled = await b.app.inject({
      method: 'POST',
      url: '/api/gw/enrol',
      payload: {
        token: created.json().enrolmentToken.token,
        publicKey: generateKeyPair().publicKey,
        hostname: 'multi',
        version: '1.0.0',
      },
    });
    const bearer = { authorization: `Bearer ${enrolled.json().credential}` };
    const first = (await b.app.inject({ url: '/api/gw/bundle?wait=0', headers: bearer })).json();
    const waiting = b.app.inject({
      url: '/api/gw/bundle?wait=30',
      headers: { ...bearer, 'if-none-match': `"${first.version}"` },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const saved = await f.app.inject({
      method: 'POST',
      url: '/api/policy/acme',
      headers: auth(owner),
      payload: {
        type: 'other',
        name: 'Block multi.example',
        rules: [rule({ name: 'Multi', url: 'multi.example' })],
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    // The held request answers with the change (how fast: npm run bench).
    const answered = await waiting;
    expect(answered.statusCode).toBe(200);
    expect(answered.json().artefacts.rpz).toContain('multi.example');
  });
});

describe('scheduled work runs once across instances', () => {
  it('a due URL feed is fetched once when both instances run their refresh at the same moment', async () => {
    const added = await f.app.inject({
      method: 'POST',
      url: '/api/policy/feeds/acme/url',
      headers: auth(owner),
      payload: { name: 'Shared feed', url: `${base}/shared.txt`, refreshMinutes: 15 },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(hits.get('/shared.txt')).toBe(1);
    const longAgo = new Date(Date.now() - 16 * 60_000).toISOString();
    await f.database.db.execute(
      sql`update policy_feeds set last_refreshed_at = ${longAgo}, updated_at = ${longAgo}, created_at = ${longAgo}
        where tenant_id = ${f.acme.id} and id = ${added.json().id}`,
    );

    const attempted = await Promise.all([refreshDueFeeds(f.database), refreshDueFeeds(b.database)]);
    expect(hits.get('/shared.txt')).toBe(2);
    expect(attempted[0] + attempted[1]).toBe(1);
    const feeds = await b.app.inject({ url: '/api/policy/feeds/acme', headers: auth(owner) });
    expect(feeds.json().find((feed: { id: string }) => feed.id === added.json().id)).toMatchObject({
      ipCount: 2,
      lastError: null,
    });
    // Claimed and refreshed: not due again on either instance until its interval has passed.
    expect(await Promise.all([refreshDueFeeds(f.database), refreshDueFeeds(b.database)])).toEqual([0, 0]);
    expect(hits.get('/shared.txt')).toBe(2);
  });

  it('the hourly event purge runs on one instance per interval', async () => {
    const DAY_MS = 86_400_000;
    await f.database.db.insert(adminEvents).values(
      [400, 500].map((days) => ({
        tenantId: f.acme.id,
        at: new Date(Date.now() - days * DAY_MS),
        actorName: 'old@test',
        action: 'purge.test',
        objectType: 'purge',
      })),
    );
    const ticks = await Promise.all([runScheduledPurge(f.database), runScheduledPurge(b.database)]);
    expect(ticks.filter((deleted) => deleted === null)).toHaveLength(1);
    expect(ticks.find((deleted) => deleted !== null)).toBe(2);
    // The next ticks within the hour belong to no one.
    expect(await runScheduledPurge(b.database)).toBeNull();
    expect(await runScheduledPurge(f.database)).toBeNull();
  });
});
