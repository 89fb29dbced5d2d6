import { describe, expect, it, vi } from 'vitest';
import { useFixture } from '../../test/helper';

// REDIS_URL names a port nobody listens on: Redis is down from the start.
const f = useFixture({ rateLimit: { max: 3, windowMs: 60_000 }, redisUrl: 'redis://127.0.0.1:1' });

describe('server with its Redis down', () => {
  it('signs in and serves the API, rate limited per instance, and logs the outage once', async () => {
    const warn = vi.spyOn(f.app.log, 'warn');
    try {
      const token = await f.signIn('admin@acme.test');
      const call = () =>
        f.app.inject({ url: '/api/subscriber/user/acme', headers: { 'x-auth-token': token } });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await call()).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(warn.mock.calls.filter(([, message]) => String(message).includes('Redis'))).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });

  it('reports Redis down in /api/health and stays ready (200); liveness answers', async () => {
    const health = await f.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'degraded', database: 'ok', redis: 'down' });
    const live = await f.app.inject({ url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
  });
});
