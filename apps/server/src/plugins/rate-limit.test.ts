import { describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';

// With TEST_REDIS_URL the counters live in Redis (the scaled set-up); otherwise in memory.
const redisUrl = process.env.TEST_REDIS_URL ?? null;
const f = useFixture({ rateLimit: { max: 3, windowMs: 60_000 }, redisUrl });

describe(`server rate limit (${redisUrl ? 'Redis' : 'in memory'})`, () => {
  it('allows max calls per session and method+path, then answers 429 with Retry-After', async () => {
    const token = await f.signIn('admin@acme.test');
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
});
