import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';
import { seedSubscriptions } from './subscriptions';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
let acme: string;
let globex: string;

beforeAll(async () => {
  await seedSubscriptions(f.database, f.config);
  acme = await f.signIn('admin@acme.test');
  globex = await f.signIn('admin@globex.test');
});

const get = async (url: string, token: string) => {
  const res = await f.app.inject({ url: `/api${url}`, headers: auth(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('demo subscriptions', () => {
  it('puts acme on a paid Business plan with a card, four invoices (one paid on retry) and 60 days of usage', async () => {
    const sub = await get('/tenant/acme/subscription', acme);
    expect(sub).toMatchObject({
      plan: 'business',
      status: 'active',
      seats: 100,
      cancellable: true,
      paymentMethod: { brand: 'visa', last4: '4242' },
    });
    const days = (Date.parse(sub.renewsAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(3);
    expect(days).toBeLessThan(6);
    const payments = await get('/tenant/acme/payments?order=asc', acme);
    expect(payments.items.map((p: { status: string; attempts: number }) => [p.status, p.attempts])).toEqual([
      ['paid', 1],
      ['paid', 1],
      ['paid', 2],
      ['paid', 1],
    ]);
    const history = await get('/tenant/acme/subscription/history?kind=payment_failed', acme);
    expect(history.total).toBe(1);
    const usage = await get('/tenant/acme/subscription/usage?days=61', acme);
    expect(usage.points).toHaveLength(61);
  });

  it('puts globex on a trial that ends in 10 days and cannot be cancelled', async () => {
    const sub = await get('/tenant/globex/subscription', globex);
    expect(sub).toMatchObject({ plan: 'trial', status: 'trial', cancellable: false });
    const days = (Date.parse(sub.trialEndsAt) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(10);
    const cancel = await f.app.inject({
      method: 'POST',
      url: '/api/tenant/globex/subscription/cancel',
      headers: auth(globex),
    });
    expect(cancel.statusCode).toBe(409);
  });
});
