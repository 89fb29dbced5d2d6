import { API_RATE_LIMIT } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

// The default limit (100 per window), not the suite's relaxed one: the public enrolment is guessable only slowly.
const f = useFixture({ rateLimit: { max: API_RATE_LIMIT.max, windowMs: API_RATE_LIMIT.windowMs } });

describe('public enrolment rate limit', () => {
  it('answers 429 to the call past the limit from one address', async () => {
    const attempt = (i: number) =>
      f.app.inject({
        method: 'POST',
        url: '/api/enrol',
        payload: { token: `pal_enr_guess-${i}-abcdefghijklmnop`, device: { name: 'X', os: 'linux' } },
      });
    for (let i = 0; i < API_RATE_LIMIT.max; i++) expect((await attempt(i)).statusCode).toBe(404);
    const limited = await attempt(API_RATE_LIMIT.max);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited' });
    // Another address still gets through.
    const other = await f.app.inject({
      method: 'GET',
      url: '/api/enrol/pal_enr_another-address-guess',
      remoteAddress: '192.0.2.7',
    });
    expect(other.statusCode).toBe(404);
  });
});
