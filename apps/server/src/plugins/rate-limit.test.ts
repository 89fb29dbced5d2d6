import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PASSWORD, useFixture } from '../../test/helper';
import { hashToken } from '../lib/credentials';

/**
 * A TCP relay in front of the test Redis that can be cut and restored, to play an outage on a port the server
 * keeps pointing at.
 */
async function redisRelay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const up = async () => {
    server = createServer((client) => {
      const upstream = createConnection(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  };
  const down = async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server?.close(resolve));
  };
  await up();
  return { url: `redis://127.0.0.1:${port}${target.pathname}`, up, down };
}

// With TEST_REDIS_URL the counters live in Redis (the scaled set-up), reached through a relay that can be cut;
// otherwise in memory.
const testRedisUrl = process.env.TEST_REDIS_URL ?? null;
const relay = testRedisUrl ? await redisRelay(new URL(testRedisUrl)) : null;
const f = useFixture({ rateLimit: { max: 3, windowMs: 60_000 }, redisUrl: relay?.url ?? null });
afterAll(() => relay?.down());

/**
 * A client address of its own for each test and run: Redis keeps address buckets across runs for the window, and
 * the limiter counts IPv6 clients per /64, so the random part is the network prefix.
 */
const freshAddress = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;

/** Signs in from a client address of its own (sign-in is counted per address too). */
async function signInFrom(remoteAddress = freshAddress(), username = 'admin@acme.test') {
  const res = await f.app.inject({
    method: 'POST',
    url: '/api/session',
    payload: { username, password: PASSWORD },
    remoteAddress,
  });
  expect(res.statusCode).toBe(200);
  return res.json().sessid as string;
}

describe(`server rate limit (${relay ? 'Redis' : 'in memory'})`, () => {
  it('allows max calls per session and method+path, then answers 429 with Retry-After', async () => {
    const token = await signInFrom();
    const call = () => f.app.inject({ url: '/api/subscriber/user/acme', headers: { 'x-auth-token': token } });
    for (let i = 0; i < 3; i++) expect((await call()).statusCode).toBe(200);
    const limited = await call();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ errcode: 6, code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another path is counted separately.
    expect((await f.app.inject({ url: '/api/session', headers: { 'x-auth-token': token } })).statusCode).toBe(
      200,
    );
  });

  it('counts every spelling of a path as the route the router matched: percent-encoded, HEAD for GET', async () => {
    const token = await signInFrom();
    const headers = { 'x-auth-token': token };
    // Four spellings of one route, each answered by it; the limit (3) holds across them all.
    const spellings = [
      { method: 'GET', url: '/%61pi/subscriber/user/acme' },
      { method: 'GET', url: '/api/%73ubscriber/user/acme' },
      { method: 'HEAD', url: '/api/subscriber/user/acme' },
      { method: 'GET', url: '/api/subscriber/user/%61cme' },
      { method: 'GET', url: '/api/subscriber/user/acme' },
    ] as const;
    const statuses: number[] = [];
    for (const { method, url } of spellings) {
      statuses.push((await f.app.inject({ method, url, headers })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // Anonymous calls to an encoded API path are limited by address like the plain one.
    const remoteAddress = freshAddress();
    const anonymous: number[] = [];
    for (let i = 0; i < 5; i++) {
      anonymous.push((await f.app.inject({ url: '/%61pi/subscriber/user/acme', remoteAddress })).statusCode);
    }
    expect(anonymous).toEqual([401, 401, 401, 429, 429]);
  });

  it('counts a client by its own address, whatever X-Forwarded-For it sends (no TRUST_PROXY)', async () => {
    const remoteAddress = freshAddress();
    const statuses: number[] = [];
    for (let i = 1; i <= 20; i++) {
      const res = await f.app.inject({
        url: '/api/subscriber/user/acme',
        remoteAddress,
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
      statuses.push(res.statusCode);
    }
    // Three 401s, then one bucket full: 20 forged addresses made no fresh buckets.
    expect(statuses).toEqual([401, 401, 401, ...Array(17).fill(429)]);
  });

  it('counts made-up session ids and API tokens as their client address, not as fresh buckets', async () => {
    const madeUp = [
      { 'x-auth-token': randomBytes(24).toString('base64url') },
      { authorization: `Bearer pal_${randomBytes(32).toString('base64url')}` },
      { 'x-auth-token': randomBytes(24).toString('base64url') },
      { authorization: `Bearer pal_${randomBytes(32).toString('base64url')}` },
      { 'x-auth-token': randomBytes(24).toString('base64url') },
    ];
    const remoteAddress = freshAddress();
    const statuses: number[] = [];
    for (const headers of madeUp) {
      const res = await f.app.inject({
        url: '/api/subscriber/user/acme',
        remoteAddress,
        headers,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('gives a valid session its own bucket, apart from its address', async () => {
    const remoteAddress = freshAddress();
    const token = await signInFrom(remoteAddress);
    const anonymous = () => f.app.inject({ url: '/api/subscriber/user/acme', remoteAddress });
    for (let i = 0; i < 3; i++) expect((await anonymous()).statusCode).toBe(401);
    expect((await anonymous()).statusCode).toBe(429);
    const signedIn = await f.app.inject({
      url: '/api/subscriber/user/acme',
      remoteAddress,
      headers: { 'x-auth-token': token },
    });
    expect(signedIn.statusCode).toBe(200);
  });
});

describe.skipIf(!relay)('server rate limit when Redis goes away and comes back', () => {
  it('counts per instance during the outage (logged once), then in Redis again', async () => {
    if (!relay || !testRedisUrl) return;
    const direct = new Redis(testRedisUrl);
    try {
      const token = await signInFrom();
      const key = `palisade-rl:session:${hashToken(token)}|GET|/api/subscriber/user/:tenant`;
      const call = () =>
        f.app.inject({ url: '/api/subscriber/user/acme', headers: { 'x-auth-token': token } });
      const warn = vi.spyOn(f.app.log, 'warn');
      const info = vi.spyOn(f.app.log, 'info');

      expect((await call()).statusCode).toBe(200);
      expect(await direct.get(key)).toBe('1');

      await relay.down();
      // The instance counts on its own from zero: three more calls pass, the fourth is limited.
      const during: number[] = [];
      for (let i = 0; i < 5; i++) during.push((await call()).statusCode);
      expect(during).toEqual([200, 200, 200, 429, 429]);
      expect(await direct.get(key)).toBe('1');
      expect(warn.mock.calls.filter(([, message]) => String(message).includes('Redis'))).toHaveLength(1);
      const health = await f.app.inject({ url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'degraded', database: 'ok', redis: 'down' });

      await relay.up();
      // The client reconnects on its own (backing off up to 2 s between attempts).
      await vi.waitFor(
        async () => {
          expect((await f.app.inject({ url: '/api/health' })).json().redis).toBe('ok');
        },
        { timeout: 15_000, interval: 200 },
      );
      expect((await call()).statusCode).toBe(200);
      expect(await direct.get(key)).toBe('2');
      expect(info.mock.calls.filter(([message]) => String(message).includes('Redis'))).toHaveLength(1);
    } finally {
      vi.restoreAllMocks();
      direct.disconnect();
    }
  });
});
