import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { acmeOwnerCtx, addPlatformAdmin, PASSWORD, readOutbox, useFixture } from '../../../test/helper';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { queryRows } from '../../db/client';
import { tenants, users } from '../../db/schema';
import type { Ctx } from '../../lib/context';
import { hashPassword } from '../../lib/passwords';
import { pdfText } from '../reports/reports.test-kit';
import {
  createPaymentProvider,
  type PaymentProvider,
  SandboxProvider,
  signWebhook,
} from './payments.provider';
import * as service from './subscriptions.service';

/** This file's webhook secret, set explicitly: there is no default (issue 31). */
const WEBHOOK_SECRET = `whsec_test_${randomBytes(16).toString('hex')}`;
const f = useFixture({ paymentWebhookSecret: WEBHOOK_SECRET });
const auth = (token: string) => ({ 'x-auth-token': token });
const paths = (res: { json(): { details?: { path: string }[] } }) =>
  (res.json().details ?? []).map((d) => d.path).sort();
const DAY = 86_400_000;

let owner: string;
let auditor: string;
let helpdesk: string;
let billing: string;
let globexOwner: string;
let partner: string;
let root: string;
let acmeCtx: Ctx;

async function adminActions(tenantId: string) {
  const rows = await queryRows<{ action: string }>(
    f.database.db,
    sql`select action from admin_events where tenant_id = ${tenantId} and action like 'subscription.%' order by at`,
  );
  return rows.map((r) => r.action);
}
async function historyKinds(token: string, tenant = 'acme') {
  const res = await f.app.inject({
    url: `/api/tenant/${tenant}/subscription/history?limit=100&order=asc`,
    headers: auth(token),
  });
  return (res.json().items as { kind: string }[]).map((e) => e.kind);
}
const endUsers = async (tenantId: string) =>
  (
    await queryRows<{ n: number }>(
      f.database.db,
      sql`select count(*)::int as n from users where tenant_id = ${tenantId} and usertype = 0`,
    )
  )[0].n;
const get = (url: string, token: string) => f.app.inject({ url: `/api${url}`, headers: auth(token) });
const send = (method: 'PUT' | 'POST', url: string, token: string, payload?: object) =>
  f.app.inject({ method, url: `/api${url}`, headers: auth(token), ...(payload ? { payload } : {}) });

/** Billing work at a chosen time, with a provider of its own (the sandbox keeps nothing that matters). */
const at = (now: Date) => ({
  database: f.database,
  provider: new SandboxProvider(WEBHOOK_SECRET, () => now),
  clock: () => now,
});

beforeAll(async () => {
  await addPlatformAdmin(f.database);
  [owner, auditor, helpdesk, billing, globexOwner, partner, root] = await Promise.all(
    [
      'admin@acme.test',
      'auditor@acme.test',
      'helpdesk@acme.test',
      'billing@acme.test',
      'admin@globex.test',
      'partner@northwind.test',
      'root@platform.test',
    ].map((u) => f.signIn(u)),
  );
  acmeCtx = await acmeOwnerCtx(f);
  // acme starts a trial as a new tenant would; globex stays without a subscription (no limit).
  await f.database.tenantTx(f.acme.id, (tx) => service.startTrial(tx, acmeCtx));
});

describe('GET tenant/{tenant}/subscription', () => {
  const url = '/tenant/acme/subscription';

  it('answers 401 without a session, 404 for another tenant, 403 to a role without billing', async () => {
    const none = await f.app.inject({ url: `/api${url}` });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ errcode: 1 });
    expect((await get('/tenant/globex/subscription', owner)).statusCode).toBe(404);
    expect((await get(url, helpdesk)).statusCode).toBe(403);
    expect((await get(url, auditor)).statusCode).toBe(200);
    expect((await get(url, billing)).statusCode).toBe(200);
  });

  it("shows the trial with its end, its seats and the tenant's real end users", async () => {
    const res = await get(url, owner);
    expect(res.statusCode).toBe(200);
    const sub = res.json();
    expect(sub).toMatchObject({
      tenant: 'acme',
      plan: 'trial',
      status: 'trial',
      seats: 10,
      used: { users: 1, devices: 0 },
      paymentMethod: null,
      cancellable: false,
      renewsAt: null,
    });
    const days = (Date.parse(sub.trialEndsAt) - Date.now()) / DAY;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    expect(await adminActions(f.acme.id)).toEqual(['subscription.start']);
  });

  it('answers 404 for a tenant without a subscription (no seat limit either)', async () => {
    expect((await get('/tenant/globex/subscription', globexOwner)).statusCode).toBe(404);
  });

  it('lists the plans with their prices in cents', async () => {
    const res = await get('/tenant/acme/subscription/plans', auditor);
    expect(res.statusCode).toBe(200);
    const business = res.json().plans.find((p: { sku: string }) => p.sku === 'business');
    expect(business).toMatchObject({ name: 'Business', pricePerSeat: { monthly: 1200, yearly: 12000 } });
    expect(res.json().plans.map((p: { sku: string }) => p.sku)).toEqual([
      'trial',
      'essentials',
      'business',
      'enterprise',
    ]);
  });
});

describe('PUT tenant/{tenant}/subscription on a trial', () => {
  const url = '/tenant/acme/subscription';

  it('answers 401, 403 to the auditor, 404 for another tenant', async () => {
    expect((await f.app.inject({ method: 'PUT', url: `/api${url}`, payload: {} })).statusCode).toBe(401);
    expect((await send('PUT', url, auditor, { plan: 'business' })).statusCode).toBe(403);
    expect((await send('PUT', '/tenant/globex/subscription', owner, { plan: 'business' })).statusCode).toBe(
      404,
    );
  });

  it('answers 400 naming the fields', async () => {
    const res = await send('PUT', url, owner, { plan: 'gold', seats: 'many', addOns: ['nope'] });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['body.addOns.0', 'body.plan', 'body.seats']);
    const rules = await send('PUT', url, owner, {
      plan: 'essentials',
      seats: 3,
      addOns: ['extendedRetention', 'xdr'],
    });
    expect(rules.statusCode).toBe(400);
    expect(rules.json().details).toEqual([
      { path: 'body.seats', message: 'validation.seatsBelowMinimum', values: { min: '5' } },
      { path: 'body.addOns.1', message: 'validation.addOnNotOffered', values: { item: 'xdr' } },
      { path: 'body.paymentToken', message: 'validation.paymentMethodRequired' },
    ]);
  });

  it('refuses to start a plan with an add-on that is not sold (400 naming its index) and changes nothing', async () => {
    const res = await send('PUT', url, owner, {
      plan: 'business',
      seats: 10,
      addOns: ['xdr', 'extendedRetention', 'private5g'],
      paymentToken: 'tok_visa',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { path: 'body.addOns.0', message: 'validation.addOnNotOffered', values: { item: 'xdr' } },
      { path: 'body.addOns.2', message: 'validation.addOnNotOffered', values: { item: 'private5g' } },
    ]);
    expect((await get(url, owner)).json()).toMatchObject({ plan: 'trial', status: 'trial', addOns: [] });
    expect(await historyKinds(owner)).toEqual(['trial_started']);
    expect(await adminActions(f.acme.id)).toEqual(['subscription.start']);
  });

  it('refuses to cancel a trial (409 trial_not_cancellable)', async () => {
    const res = await send('POST', '/tenant/acme/subscription/cancel', owner);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      errcode: 25,
      code: 'trial_not_cancellable',
      details: [{ path: 'subscription', message: 'error.trialNotCancellable', values: { planSku: 'trial' } }],
    });
    expect((await get(url, owner)).json()).toMatchObject({ status: 'trial', cancelAtPeriodEnd: false });
  });

  it('answers 402 payment_declined for a declined card and changes nothing', async () => {
    for (const [token, reason] of [
      ['tok_chargeDeclined', 'card_declined'],
      ['tok_insufficientFunds', 'insufficient_funds'],
    ]) {
      const res = await send('PUT', url, owner, { plan: 'business', seats: 10, paymentToken: token });
      expect(res.statusCode, token).toBe(402);
      expect(res.json()).toMatchObject({
        errcode: 24,
        code: 'payment_declined',
        details: [
          { message: 'error.paymentDeclined', values: { plan: 'Business', planSku: 'business', reason } },
        ],
      });
    }
    expect((await get(url, owner)).json()).toMatchObject({
      plan: 'trial',
      status: 'trial',
      paymentMethod: null,
    });
    expect((await get('/tenant/acme/payments', owner)).json()).toEqual({ items: [], total: 0 });
    expect(await historyKinds(owner)).toEqual(['trial_started']);
    expect(await adminActions(f.acme.id)).toEqual(['subscription.start']);
  });

  it('moves onto a paid plan with a good card: charged at once, the card kept as brand and last four only', async () => {
    const res = await send('PUT', url, billing, { plan: 'business', seats: 10, paymentToken: 'tok_visa' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      plan: 'business',
      status: 'active',
      billingCycle: 'monthly',
      seats: 10,
      trialEndsAt: null,
      cancellable: true,
      paymentMethod: { brand: 'visa', last4: '4242' },
      price: { currency: 'EUR', total: 12_000 },
    });
    expect(res.json().renewsAt).toBe(res.json().currentPeriodEnd);
    const payments = (await get('/tenant/acme/payments', billing)).json();
    expect(payments.total).toBe(1);
    expect(payments.items[0]).toMatchObject({ status: 'paid', amount: 12_000, currency: 'EUR', attempts: 1 });
    expect(payments.items[0].number).toMatch(/^INV-\d{4}-\d{6}$/);
    expect(await historyKinds(owner)).toEqual([
      'trial_started',
      'payment_method_updated',
      'plan_changed',
      'payment_succeeded',
    ]);
    // One transaction: the same time for both events.
    expect((await adminActions(f.acme.id)).sort()).toEqual([
      'subscription.paymentMethod.update',
      'subscription.start',
      'subscription.update',
    ]);
    const [stored] = await queryRows<{ provider_method_id: string }>(
      f.database.db,
      sql`select provider_method_id from payment_methods where tenant_id = ${f.acme.id}`,
    );
    expect(stored.provider_method_id).toMatch(/^pm_sandbox_/);
  });
});

describe('the seat limit', () => {
  it('refuses a new end user past the seats (409 naming the plan) and adds nothing', async () => {
    for (let i = 0; i < 9; i++) {
      const res = await send('POST', '/subscriber/user/acme', owner, {
        username: `seat${i}@acme.test`,
        firstname: 'Seat',
        lastname: `N${i}`,
      });
      expect(res.statusCode).toBe(201);
    }
    expect(await endUsers(f.acme.id)).toBe(10);
    const res = await send('POST', '/subscriber/user/acme', owner, {
      username: 'one-too-many@acme.test',
      firstname: 'One',
      lastname: 'Toomany',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      errcode: 23,
      code: 'seat_limit_reached',
      details: [
        {
          path: 'subscription.seats',
          message: 'error.seatLimitReached',
          values: { plan: 'Business', planSku: 'business', seats: '10', used: '10' },
        },
      ],
    });
    expect(res.json().message).toContain('Business plan includes 10 seats');
    expect(await endUsers(f.acme.id)).toBe(10);
  });

  it('refuses the rows of an import past the seats', async () => {
    const csv = ['username,firstname,lastname', 'imp1@acme.test,Imp,One', 'imp2@acme.test,Imp,Two'].join(
      '\n',
    );
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme/import?mode=all',
      headers: { ...auth(owner), 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.statusCode).toBe(202);
    let job = res.json();
    for (let i = 0; i < 100 && job.status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await get(`/subscriber/user/acme/import/${res.json().id}`, owner)).json();
    }
    expect(job).toMatchObject({ status: 'completed', created: 0, errorCount: 2 });
    expect(job.errors.map((e: { message: string }) => e.message)).toEqual([
      'validation.seatLimitReached',
      'validation.seatLimitReached',
    ]);
    expect(await endUsers(f.acme.id)).toBe(10);
  });

  it('has no limit for a tenant without a subscription', async () => {
    const res = await send('POST', '/subscriber/user/globex', globexOwner, {
      username: 'free@globex.test',
      firstname: 'Free',
      lastname: 'Seat',
    });
    expect(res.statusCode).toBe(201);
  });

  it('refuses buying XDR, not sold yet (400 body.addOns.<index>), and changes nothing', async () => {
    const before = (await get('/tenant/acme/subscription', owner)).json();
    const payments = (await get('/tenant/acme/payments', owner)).json().total;
    const kinds = await historyKinds(owner);
    const actions = await adminActions(f.acme.id);
    const res = await send('PUT', '/tenant/acme/subscription', owner, { seats: 12, addOns: ['xdr'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errcode: 2,
      details: [{ path: 'body.addOns.0', message: 'validation.addOnNotOffered', values: { item: 'xdr' } }],
    });
    expect((await get('/tenant/acme/subscription', owner)).json()).toEqual(before);
    expect((await get('/tenant/acme/payments', owner)).json().total).toBe(payments);
    expect(await historyKinds(owner)).toEqual(kinds);
    expect(await adminActions(f.acme.id)).toEqual(actions);
    // An add-on the plan does not sell is refused the same way, with its own key.
    const essentials = await send('PUT', '/tenant/acme/subscription', owner, {
      plan: 'essentials',
      seats: 10,
      addOns: ['extendedRetention', 'private5g'],
    });
    expect(essentials.json().details).toEqual([
      { path: 'body.addOns.1', message: 'validation.addOnNotOffered', values: { item: 'private5g' } },
    ]);
    // A subscription that still holds one (bought before it was withdrawn) must name its add-ons to change.
    await queryRows(
      f.database.db,
      sql`update subscriptions set add_ons = '{xdr}' where tenant_id = ${f.acme.id}`,
    );
    const kept = await send('PUT', '/tenant/acme/subscription', owner, { seats: 12 });
    expect(kept.statusCode).toBe(400);
    expect(kept.json().details).toEqual([
      { path: 'body.addOns', message: 'validation.addOnNotOffered', values: { item: 'xdr' } },
    ]);
    await queryRows(
      f.database.db,
      sql`update subscriptions set add_ons = '{}' where tenant_id = ${f.acme.id}`,
    );
    expect((await get('/tenant/acme/subscription', owner)).json()).toEqual(before);
    // The catalogue sells only what is offered.
    const catalogue = (await get('/tenant/acme/subscription/plans', owner)).json();
    for (const plan of catalogue.plans) expect(plan.addOns, plan.sku).not.toContain('xdr');
    expect(
      catalogue.addOns.filter((a: { offered: boolean }) => a.offered).map((a: { sku: string }) => a.sku),
    ).toEqual(['extendedRetention']);
  });

  it('lets a seat be added once more seats are bought; fewer seats than end users is refused', async () => {
    const fewer = await send('PUT', '/tenant/acme/subscription', owner, { plan: 'essentials', seats: 5 });
    expect(fewer.statusCode).toBe(400);
    expect(fewer.json().details).toEqual([
      { path: 'body.seats', message: 'validation.seatsBelowUsed', values: { used: '10' } },
    ]);
    const more = await send('PUT', '/tenant/acme/subscription', owner, {
      seats: 12,
      addOns: ['extendedRetention'],
    });
    expect(more.statusCode).toBe(200);
    expect(more.json()).toMatchObject({
      seats: 12,
      addOns: ['extendedRetention'],
      price: { total: 12 * 1200 + 9_900 },
    });
    // More seats and an add-on cost more: the rest of the period is charged before they take effect.
    expect((await historyKinds(owner)).slice(-3)).toEqual([
      'seats_changed',
      'addon_added',
      'payment_succeeded',
    ]);
    const [charged] = (await get('/tenant/acme/payments?limit=1', owner)).json().items;
    expect(charged).toMatchObject({ status: 'paid' });
    expect(charged.amount).toBeGreaterThan(0);
    expect(charged.amount).toBeLessThanOrEqual(12 * 1200 + 9_900 - 10 * 1200);
    const added = await send('POST', '/subscriber/user/acme', owner, {
      username: 'seat-ok@acme.test',
      firstname: 'Seat',
      lastname: 'Ok',
    });
    expect(added.statusCode).toBe(201);
  });
});

describe('cancel and resume', () => {
  it('cancels a paid subscription at the end of its period, and resumes it', async () => {
    const cancelled = await send('POST', '/tenant/acme/subscription/cancel', owner);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      cancellable: false,
      renewsAt: null,
    });
    const again = await send('POST', '/tenant/acme/subscription/cancel', owner);
    expect(again.statusCode).toBe(409);
    expect(again.json().details).toEqual([{ path: 'subscription', message: 'validation.alreadyCancelled' }]);
    const resumed = await send('POST', '/tenant/acme/subscription/resume', billing);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({ cancelAtPeriodEnd: false, cancellable: true });
    expect((await send('POST', '/tenant/acme/subscription/resume', owner)).statusCode).toBe(409);
    expect((await send('POST', '/tenant/acme/subscription/cancel', auditor)).statusCode).toBe(403);
    expect((await adminActions(f.acme.id)).slice(-2)).toEqual(['subscription.cancel', 'subscription.resume']);
  });
});

describe('PUT tenant/{tenant}/subscription/payment-method', () => {
  const url = '/tenant/acme/subscription/payment-method';

  it('answers 400, 402 for a refused card (the old card stays), and replaces the card', async () => {
    const bad = await send('PUT', url, owner, { token: '' });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['body.token']);
    const declined = await send('PUT', url, owner, { token: 'tok_chargeDeclined' });
    expect(declined.statusCode).toBe(402);
    expect(declined.json().details[0]).toMatchObject({
      path: 'body.token',
      values: { reason: 'card_declined' },
    });
    expect((await get('/tenant/acme/subscription', owner)).json().paymentMethod).toMatchObject({
      last4: '4242',
    });
    const ok = await send('PUT', url, owner, { token: 'tok_mastercard' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().paymentMethod).toEqual({
      brand: 'mastercard',
      last4: '4444',
      expMonth: 12,
      expYear: expect.any(Number),
    });
  });
});

describe('renewals and failed payments', () => {
  it('renews at the period end; a failed charge makes it past due and a new card pays it', async () => {
    await send('PUT', '/tenant/acme/subscription/payment-method', owner, { token: 'tok_chargeCustomerFail' });
    const sub = (await get('/tenant/acme/subscription', owner)).json();
    const end = new Date(sub.currentPeriodEnd);
    const done = await service.runBilling(at(new Date(end.getTime() + 60_000)));
    expect(done.renewals).toBe(1);
    const pastDue = (await get('/tenant/acme/subscription', owner)).json();
    expect(pastDue).toMatchObject({ status: 'past_due' });
    expect(Date.parse(pastDue.currentPeriodStart)).toBe(end.getTime());
    const [open] = (await get('/tenant/acme/payments?status=failed', owner)).json().items;
    expect(open).toMatchObject({ status: 'failed', attempts: 1, failureCode: 'card_declined' });
    expect(Date.parse(open.nextAttemptAt)).toBe(end.getTime() + 60_000 + DAY);
    const fixed = await send('PUT', '/tenant/acme/subscription/payment-method', owner, { token: 'tok_visa' });
    expect(fixed.json()).toMatchObject({ status: 'active', paymentMethod: { last4: '4242' } });
    const paid = (await get(`/tenant/acme/payments?status=paid`, owner)).json();
    expect(paid.items.map((p: { id: string }) => p.id)).toContain(open.id);
    expect((await get(`/tenant/acme/payments?status=paid`, owner)).json().items[0]).toMatchObject({
      attempts: 2,
    });
    // The renewal is dated a month ahead (the injected clock), the new card now: compare without the order.
    const kinds = await historyKinds(owner);
    expect(kinds.slice(-6).sort()).toEqual(
      [
        'renewed',
        'payment_failed',
        'past_due',
        'payment_method_updated',
        'payment_succeeded',
        'resumed',
      ].sort(),
    );
  });

  it('retries a failed invoice after 1, 3 and 5 days, past due meanwhile, then expires it', async () => {
    // globex buys a plan, then its card starts failing.
    const globexCtx: Ctx = { ...acmeCtx, tenant: { id: f.globex.id, name: 'globex', kind: 'customer' } };
    const start = new Date(Date.now() - 40 * DAY);
    await f.database.tenantTx(f.globex.id, (tx) => service.startTrial(tx, globexCtx, start));
    await service.updateSubscription(at(start), globexCtx, {
      plan: 'essentials',
      seats: 5,
      paymentToken: 'tok_visa',
    });
    await service.setPaymentMethod(at(start), globexCtx, 'tok_insufficientFunds');
    const end = (await service.getSubscription(f.database, globexCtx)).currentPeriodEnd!;
    const failedAt = new Date(Date.parse(end) + 1000);
    await service.runBilling(at(failedAt));
    const status = async () => (await service.getSubscription(f.database, globexCtx)).status;
    const invoice = async () =>
      (await service.listPayments(f.database, globexCtx, { limit: 1, offset: 0, order: 'desc' })).items[0];
    expect(await status()).toBe('past_due');
    expect(await invoice()).toMatchObject({
      status: 'failed',
      attempts: 1,
      failureCode: 'insufficient_funds',
    });
    // Nothing is due before the next try.
    expect((await service.runBilling(at(new Date(failedAt.getTime() + DAY - 1000)))).retries).toBe(0);
    for (const [day, attempts] of [
      [1, 2],
      [3, 3],
    ] as const) {
      expect((await service.runBilling(at(new Date(failedAt.getTime() + day * DAY)))).retries).toBe(1);
      expect(await status()).toBe('past_due');
      const next = await invoice();
      expect(next).toMatchObject({ status: 'failed', attempts });
      expect(Date.parse(next.nextAttemptAt!)).toBe(failedAt.getTime() + (day === 1 ? 3 : 5) * DAY);
    }
    expect((await service.runBilling(at(new Date(failedAt.getTime() + 5 * DAY)))).retries).toBe(1);
    expect(await status()).toBe('expired');
    expect(await invoice()).toMatchObject({ status: 'failed', attempts: 4, nextAttemptAt: null });
    const kinds = (
      await service.listHistory(f.database, globexCtx, { limit: 100, offset: 0, order: 'asc' })
    ).items.map((e) => e.kind);
    expect(kinds.slice(-7)).toEqual([
      'renewed',
      'payment_failed',
      'past_due',
      'payment_failed',
      'payment_failed',
      'payment_failed',
      'expired',
    ]);
  });

  it('starts the trial of a signed-up workspace when its owner verifies the address', async () => {
    const password = 'dolphin-autumn-marble-41';
    const signup = await f.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: {
        organisation: 'Hooli',
        firstname: 'Gavin',
        lastname: 'Belson',
        password,
        tenant: 'hooli',
        email: 'gavin@hooli.test',
      },
    });
    expect(signup.statusCode).toBe(201);
    const [mail] = await readOutbox(f.database, 'gavin@hooli.test');
    const secret = /\/verify\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] as string;
    expect((await f.app.inject({ url: `/api/user/verify/${secret}` })).statusCode).toBe(200);
    const session = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'gavin@hooli.test', password },
    });
    const sub = (await get('/tenant/hooli/subscription', session.json().sessid)).json();
    expect(sub).toMatchObject({ plan: 'trial', status: 'trial', seats: 10, cancellable: false });
    expect(Math.round((Date.parse(sub.trialEndsAt) - Date.now()) / DAY)).toBe(14);
  });

  it('ends a trial after its 14 days', async () => {
    const res = await send('POST', '/partner/northwind/tenants', partner, {
      name: 'initech',
      displayName: 'Initech',
      owner: { email: 'owner@initech.test', firstname: 'Bill', lastname: 'Lumbergh' },
    });
    expect(res.statusCode).toBe(201);
    const trial = await get('/tenant/initech/subscription', partner);
    expect(trial.json()).toMatchObject({ plan: 'trial', status: 'trial', seats: 10 });
    await service.runBilling(at(new Date(Date.parse(trial.json().trialEndsAt) - 1000)));
    expect((await get('/tenant/initech/subscription', partner)).json().status).toBe('trial');
    await service.runBilling(at(new Date(Date.parse(trial.json().trialEndsAt) + 1000)));
    expect((await get('/tenant/initech/subscription', partner)).json().status).toBe('expired');
  });
});

describe('GET tenant/{tenant}/subscription/history and usage', () => {
  it('pages the history on the server, newest first', async () => {
    const res = await get('/tenant/acme/subscription/history?limit=2', auditor);
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toHaveLength(2);
    expect(res.json().total).toBeGreaterThan(10);
    const [a, b] = res.json().items;
    expect(Date.parse(a.createdAt)).toBeGreaterThanOrEqual(Date.parse(b.createdAt));
    expect(a.actor === null || typeof a.actor === 'string').toBe(true);
    expect((await get('/tenant/acme/subscription/history?kind=nope', owner)).statusCode).toBe(400);
    expect((await get('/tenant/acme/subscription/history', helpdesk)).statusCode).toBe(403);
  });

  it("answers today's usage with the real counts, and 400 for a bad range", async () => {
    const res = await get('/tenant/acme/subscription/usage?days=7', owner);
    expect(res.statusCode).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.json().to).toBe(today);
    expect(res.json().points.at(-1)).toEqual({ day: today, users: 11, devices: 0, seats: 12 });
    const bad = await get('/tenant/acme/subscription/usage?days=0&from=2026-13-01', owner);
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['query.days', 'query.from']);
    const reversed = await get('/tenant/acme/subscription/usage?from=2026-02-01&to=2026-01-01', owner);
    expect(reversed.statusCode).toBe(400);
    expect(paths(reversed)).toEqual(['query.from']);
  });
});

describe('GET tenant/{tenant}/payments/{id}/invoice', () => {
  it('answers the invoice as a PDF naming its number and amount, in English or German', async () => {
    const [first] = (await get('/tenant/acme/payments?order=asc&limit=1', auditor)).json().items;
    const res = await get(`/tenant/acme/payments/${first.id}/invoice`, auditor);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`${first.number}.pdf`);
    const text = pdfText(res.rawPayload);
    expect(text).toContain(`Invoice ${first.number}`);
    expect(text).toContain('€120.00');
    expect(text).toContain('Billed to');
    const de = pdfText((await get(`/tenant/acme/payments/${first.id}/invoice?lng=de`, auditor)).rawPayload);
    expect(de).toContain(`Rechnung ${first.number}`);
    expect(de).toContain('120,00 €');
  });

  it("answers 404 for another tenant's invoice, 400 for a bad id, 403 without billing", async () => {
    const [first] = (await get('/tenant/acme/payments', owner)).json().items;
    expect((await get(`/tenant/globex/payments/${first.id}/invoice`, globexOwner)).statusCode).toBe(404);
    const bad = await get('/tenant/acme/payments/nope/invoice', owner);
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['params.id']);
    expect((await get(`/tenant/acme/payments/${first.id}/invoice`, helpdesk)).statusCode).toBe(403);
    expect((await get('/tenant/acme/payments?limit=0', owner)).statusCode).toBe(400);
  });
});

describe('POST billing/webhook', () => {
  const post = (body: string, signature?: string) =>
    f.app.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'payment-signature': signature } : {}),
      },
      payload: body,
    });

  it('applies a signed event once, and refuses a bad or old signature', async () => {
    const [paid] = (await get('/tenant/acme/payments?status=paid&order=asc&limit=1', owner)).json().items;
    const sandbox = new SandboxProvider(WEBHOOK_SECRET);
    const delivery = sandbox.emit('charge.refunded', {
      id: 'ch_x',
      metadata: { paymentId: paid.id, tenantId: f.acme.id },
    });
    const tampered = delivery.body.replace('charge.refunded', 'charge.succeeded');
    expect((await post(tampered, delivery.signature)).statusCode).toBe(400);
    expect((await post(delivery.body)).statusCode).toBe(400);
    const old = Math.floor(Date.now() / 1000) - 301;
    const stale = await post(delivery.body, signWebhook(WEBHOOK_SECRET, delivery.body, old));
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ errcode: 2, details: [{ path: 'headers.payment-signature' }] });
    const wrongSecret = await post(
      delivery.body,
      signWebhook('whsec_other', delivery.body, Math.floor(Date.now() / 1000)),
    );
    expect(wrongSecret.statusCode).toBe(400);
    // Nothing changed so far.
    expect((await get(`/tenant/acme/payments?status=refunded`, owner)).json().total).toBe(0);

    const ok = await post(delivery.body, delivery.signature);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ received: true, duplicate: false });
    expect((await get(`/tenant/acme/payments?status=refunded`, owner)).json().items[0].id).toBe(paid.id);
    const replay = await post(delivery.body, delivery.signature);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect((await historyKinds(owner)).filter((k) => k === 'payment_refunded')).toHaveLength(1);
  });
});

describe('GET partner/{tenant}/subscriptions/usage', () => {
  it('answers 401, 403 to a customer role, 404 for a console that is not the partner’s', async () => {
    expect((await f.app.inject({ url: '/api/partner/northwind/subscriptions/usage' })).statusCode).toBe(401);
    expect((await get('/partner/acme/subscriptions/usage', owner)).statusCode).toBe(403);
    expect((await get('/partner/globex/subscriptions/usage', partner)).statusCode).toBe(404);
    expect((await get('/partner/acme/subscriptions/usage', partner)).statusCode).toBe(404);
    expect((await get('/partner/northwind/subscriptions/usage?status=paused', partner)).statusCode).toBe(400);
  });

  it("lists only the partner's own tenants with plan, status, seats and use, and totals", async () => {
    const res = await get('/partner/northwind/subscriptions/usage', partner);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((r: { tenant: string }) => r.tenant)).toEqual(['acme', 'initech']);
    expect(res.json().items[0]).toMatchObject({
      tenant: 'acme',
      plan: 'business',
      status: 'active',
      seats: 12,
      used: { users: 11, devices: 0 },
    });
    expect(res.json().totals).toMatchObject({
      tenants: 2,
      seats: 22,
      users: 11,
      byStatus: { active: 1, expired: 1 },
    });
    const page = await get('/partner/northwind/subscriptions/usage?limit=1&offset=1', partner);
    expect(page.json()).toMatchObject({ total: 2, items: [{ tenant: 'initech', status: 'expired' }] });
    const all = await get('/partner/platform/subscriptions/usage?limit=100', root);
    expect(all.json().items.map((r: { tenant: string }) => r.tenant)).toEqual(
      expect.arrayContaining(['acme', 'globex', 'initech', 'northwind']),
    );
  });
});

// ─── Issue 31: payments that cannot be forged or skipped ────────────────────────────────────────────────────

const webhookPost = (app: typeof f.app, body: string, signature: string) =>
  app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'payment-signature': signature },
    payload: body,
  });
/** A `charge.succeeded` signed with the secret that used to be the published development default. */
function forgedSuccess(paymentId: string, tenantId: string, amount: number) {
  const forger = new SandboxProvider('whsec_palisade_development');
  return forger.emit('charge.succeeded', {
    id: 'ch_forged',
    amount,
    currency: 'eur',
    metadata: { paymentId, tenantId },
  });
}
/** The charges a sandbox made for a tenant (one signed `charge.*` delivery per charge, none for a repeated key). */
const chargesOf = (provider: PaymentProvider, tenantId: string) =>
  (provider as SandboxProvider).deliveries.filter((d) => {
    const event = JSON.parse(d.body);
    return event.type.startsWith('charge.') && event.type !== 'charge.refunded'
      ? event.data.object.metadata?.tenantId === tenantId
      : false;
  });

/** A customer tenant outside northwind on a fresh trial, with an owner `admin@<name>.test` (password PASSWORD). */
async function trialTenant(name: string, withOwner = true) {
  const [t] = await f.database.db
    .insert(tenants)
    .values({
      name,
      displayName: name.toUpperCase(),
      kind: 'customer',
      themevalue: 'light',
      palette: 'classic',
    })
    .returning();
  const username = `admin@${name}.test`;
  const [admin] = await f.database.db
    .insert(users)
    .values({
      tenantId: t.id,
      username,
      email: username,
      firstname: 'Admin',
      lastname: name,
      role: 'owner',
      usertype: 1,
      passwordHash: withOwner ? await hashPassword(PASSWORD) : null,
      isEmailVerified: true,
    })
    .returning();
  const ctx: Ctx = {
    tenant: { id: t.id, name, kind: 'customer' },
    actor: {
      id: admin.id,
      username,
      role: 'owner',
      usertype: 1,
      tenantId: t.id,
      tenantName: name,
      tenantKind: 'customer',
      sessionHash: '',
    },
    ip: null,
  };
  await f.database.tenantTx(t.id, (tx) => service.startTrial(tx, ctx));
  return { id: t.id, ctx, token: withOwner ? await f.signIn(username) : '' };
}
const invoicesOf = async (ctx: Ctx) =>
  (await service.listPayments(f.database, ctx, { limit: 100, offset: 0, order: 'asc' })).items;

describe('the webhook secret has no default (issue 31)', () => {
  it('closes the webhook without PAYMENT_WEBHOOK_SECRET in production and refuses the published secret', () => {
    const env = { DATABASE_URL: 'memory://', LOG_LEVEL: 'silent', SEED_DEMO: 'false' };
    const production = loadConfig({ ...env, NODE_ENV: 'production' }, []);
    expect(production.paymentWebhookSecret).toBeNull();
    expect(production.paymentWebhookDevSecret).toBeNull();
    // Development with the sandbox: a random secret of this process, never the published one.
    const dev = [loadConfig(env, []), loadConfig(env, [])];
    expect(dev[0].paymentWebhookSecret).toBeNull();
    expect(dev[0].paymentWebhookDevSecret).toMatch(/^whsec_dev_[0-9a-f]{48}$/);
    expect(dev[0].paymentWebhookDevSecret).not.toBe(dev[1].paymentWebhookDevSecret);
    expect(() => loadConfig({ ...env, PAYMENT_WEBHOOK_SECRET: 'whsec_palisade_development' }, [])).toThrow(
      /PAYMENT_WEBHOOK_SECRET/,
    );
    expect(() => loadConfig({ ...env, PAYMENT_WEBHOOK_SECRET: 'short' }, [])).toThrow(
      /PAYMENT_WEBHOOK_SECRET/,
    );
    expect(loadConfig({ ...env, PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET }, []).paymentWebhookSecret).toBe(
      WEBHOOK_SECRET,
    );
  });

  it('a production server without a secret answers 503 to a forged event: the failed invoice stays failed', async () => {
    const globexCtx: Ctx = { ...acmeCtx, tenant: { id: f.globex.id, name: 'globex', kind: 'customer' } };
    const [failed] = (await invoicesOf(globexCtx)).filter((p) => p.status === 'failed');
    expect(failed).toBeDefined();
    const production = loadConfig({ DATABASE_URL: 'memory://', NODE_ENV: 'production' }, []);
    const closed = await buildApp(
      {
        ...f.config,
        paymentProvider: production.paymentProvider,
        paymentWebhookSecret: production.paymentWebhookSecret,
        paymentWebhookDevSecret: production.paymentWebhookDevSecret,
      },
      { database: f.database, logger: false },
    );
    try {
      const forged = forgedSuccess(failed.id, f.globex.id, failed.amount);
      const res = await webhookPost(closed.app, forged.body, forged.signature);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ errcode: 30, code: 'payment_webhook_closed' });
    } finally {
      await closed.close();
    }
    const after = (await invoicesOf(globexCtx)).find((p) => p.id === failed.id);
    expect(after).toMatchObject({ status: 'failed', paidAt: null });
  });

  it('refuses an event signed with the published development secret (400) and changes nothing', async () => {
    const globexCtx: Ctx = { ...acmeCtx, tenant: { id: f.globex.id, name: 'globex', kind: 'customer' } };
    const [failed] = (await invoicesOf(globexCtx)).filter((p) => p.status === 'failed');
    const forged = forgedSuccess(failed.id, f.globex.id, failed.amount);
    const res = await webhookPost(f.app, forged.body, forged.signature);
    expect(res.statusCode).toBe(400);
    expect((await invoicesOf(globexCtx)).find((p) => p.id === failed.id)?.status).toBe('failed');
  });
});

describe('changes are paid before they take effect (issue 31)', () => {
  let umbrella: Awaited<ReturnType<typeof trialTenant>>;
  const url = '/tenant/umbrella/subscription';
  beforeAll(async () => {
    umbrella = await trialTenant('umbrella');
  });

  it('5 simultaneous starts of a plan make one charge at the provider and one paid invoice', async () => {
    const provider = createPaymentProvider(f.config);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        send('PUT', url, umbrella.token, { plan: 'essentials', seats: 5, paymentToken: 'tok_visa' }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((r) => r.json().plan)).toEqual(Array(5).fill('essentials'));
    expect(chargesOf(provider, umbrella.id)).toHaveLength(1);
    const invoices = await invoicesOf(umbrella.ctx);
    expect(invoices.map((p) => [p.status, p.amount])).toEqual([['paid', 5 * 600]]);
    expect((await historyKinds(umbrella.token, 'umbrella')).filter((k) => k === 'plan_changed')).toHaveLength(
      1,
    );
  });

  it('refuses more seats than the plan is sold with, naming the field (400), and changes nothing', async () => {
    const res = await send('PUT', url, umbrella.token, {
      plan: 'enterprise',
      seats: 1_000_000,
      addOns: ['extendedRetention'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      {
        path: 'body.seats',
        message: 'validation.seatsAboveMaximum',
        values: { max: '100000', plan: 'Enterprise' },
      },
    ]);
    expect((await get(url, umbrella.token)).json()).toMatchObject({ plan: 'essentials', seats: 5 });
    expect(await invoicesOf(umbrella.ctx)).toHaveLength(1);
  });

  it('charges an upgrade for the rest of the period before it takes effect', async () => {
    const sub = await service.getSubscription(f.database, umbrella.ctx);
    const start = Date.parse(sub.currentPeriodStart!);
    const end = Date.parse(sub.currentPeriodEnd!);
    const half = new Date(start + Math.round((end - start) / 2));
    const deps = at(half);
    const upgraded = await service.updateSubscription(deps, umbrella.ctx, {
      plan: 'enterprise',
      seats: 60,
      addOns: ['extendedRetention'],
    });
    expect(upgraded).toMatchObject({ plan: 'enterprise', seats: 60, status: 'active' });
    // Half the period left: −½ × 5 × €6 + ½ × 60 × €20; retention is included in Enterprise (no line).
    const invoices = await invoicesOf(umbrella.ctx);
    expect(invoices).toHaveLength(2);
    expect(invoices[1]).toMatchObject({ status: 'paid', amount: -1_500 + 60_000 });
    expect(Date.parse(invoices[1].periodEnd)).toBe(end);
    expect(chargesOf(deps.provider, umbrella.id)).toHaveLength(1);
    expect((await historyKinds(umbrella.token, 'umbrella')).slice(-4)).toEqual([
      'plan_changed',
      'seats_changed',
      'addon_added',
      'payment_succeeded',
    ]);
  });

  it('leaves the old plan when the charge of a change is declined (402)', async () => {
    const sub = await service.getSubscription(f.database, umbrella.ctx);
    const later = new Date(Date.parse(sub.currentPeriodEnd!) - 5 * DAY);
    await service.setPaymentMethod(at(later), umbrella.ctx, 'tok_chargeCustomerFail');
    await expect(service.updateSubscription(at(later), umbrella.ctx, { seats: 70 })).rejects.toMatchObject({
      code: 'payment_declined',
      statusCode: 402,
    });
    expect(await service.getSubscription(f.database, umbrella.ctx)).toMatchObject({
      plan: 'enterprise',
      seats: 60,
    });
    expect(await invoicesOf(umbrella.ctx)).toHaveLength(2);
    await service.setPaymentMethod(at(later), umbrella.ctx, 'tok_visa');
  });

  it('lets a downgrade and a new billing cycle wait for the period end, then bills the new price', async () => {
    const sub = await service.getSubscription(f.database, umbrella.ctx);
    const end = Date.parse(sub.currentPeriodEnd!);
    const later = new Date(end - 3 * DAY);
    const changed = await service.updateSubscription(at(later), umbrella.ctx, {
      plan: 'business',
      seats: 20,
      addOns: [],
      billingCycle: 'yearly',
    });
    expect(changed).toMatchObject({
      plan: 'enterprise',
      seats: 60,
      billingCycle: 'monthly',
      scheduledChange: { plan: 'business', seats: 20, addOns: [], billingCycle: 'yearly' },
      price: { total: 20 * 12_000 },
    });
    expect(await invoicesOf(umbrella.ctx)).toHaveLength(2);
    await service.runBilling(at(new Date(end + 60_000)));
    const renewed = await service.getSubscription(f.database, umbrella.ctx);
    expect(renewed).toMatchObject({
      plan: 'business',
      seats: 20,
      billingCycle: 'yearly',
      scheduledChange: null,
    });
    const invoices = await invoicesOf(umbrella.ctx);
    expect(invoices.at(-1)).toMatchObject({ status: 'paid', amount: 20 * 12_000 });
  });
});

describe('the charge and its record are one durable step (issue 31)', () => {
  let stark: Awaited<ReturnType<typeof trialTenant>>;
  const sandbox = new SandboxProvider(WEBHOOK_SECRET);
  /** The provider charges, then the process dies before the answer is recorded. */
  const crashing: PaymentProvider = {
    name: sandbox.name,
    webhookStatus: sandbox.webhookStatus,
    createCustomer: (input) => sandbox.createCustomer(input),
    attachPaymentMethod: (customerId, token) => sandbox.attachPaymentMethod(customerId, token),
    charge: async (input) => {
      await sandbox.charge(input);
      throw new Error('crashed between the charge and its record');
    },
    verifyWebhook: (body, signature, now) => sandbox.verifyWebhook(body, signature, now),
  };
  beforeAll(async () => {
    stark = await trialTenant('stark', false);
  });

  it('settles a start the provider charged before a crash in the reconciler, charging once', async () => {
    const now = new Date();
    await expect(
      service.updateSubscription({ database: f.database, provider: crashing, clock: () => now }, stark.ctx, {
        plan: 'essentials',
        seats: 5,
        paymentToken: 'tok_visa',
      }),
    ).rejects.toThrow(/crashed/);
    expect(await service.getSubscription(f.database, stark.ctx)).toMatchObject({ plan: 'trial' });
    expect(await invoicesOf(stark.ctx)).toHaveLength(0);
    expect(chargesOf(sandbox, stark.id)).toHaveLength(1);

    const later = new Date(now.getTime() + 10 * 60_000);
    await service.runBilling({ database: f.database, provider: sandbox, clock: () => later }, later);
    expect(await service.getSubscription(f.database, stark.ctx)).toMatchObject({
      plan: 'essentials',
      status: 'active',
      paymentMethod: { last4: '4242' },
    });
    expect((await invoicesOf(stark.ctx)).map((p) => [p.status, p.amount])).toEqual([['paid', 3_000]]);
    expect(chargesOf(sandbox, stark.id)).toHaveLength(1);
  });

  it('settles a charged change from the webhook; another change waits for it (409)', async () => {
    const now = new Date();
    await expect(
      service.updateSubscription({ database: f.database, provider: crashing, clock: () => now }, stark.ctx, {
        seats: 10,
      }),
    ).rejects.toThrow(/crashed/);
    expect(await service.getSubscription(f.database, stark.ctx)).toMatchObject({ seats: 5 });
    await expect(
      service.updateSubscription({ database: f.database, provider: sandbox, clock: () => now }, stark.ctx, {
        seats: 8,
      }),
    ).rejects.toMatchObject({ code: 'conflict', details: [{ message: 'validation.paymentInProgress' }] });

    const [delivery] = chargesOf(sandbox, stark.id).slice(-1);
    const res = await webhookPost(f.app, delivery.body, delivery.signature);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await service.getSubscription(f.database, stark.ctx)).toMatchObject({ seats: 10 });
    const invoices = await invoicesOf(stark.ctx);
    expect(invoices).toHaveLength(2);
    expect(invoices[1]).toMatchObject({ status: 'paid' });
    expect(invoices[1].amount).toBeGreaterThan(0);
    // Nothing is left for the reconciler, and nothing is charged again.
    const later = new Date(now.getTime() + 10 * 60_000);
    await service.runBilling({ database: f.database, provider: sandbox, clock: () => later }, later);
    expect(chargesOf(sandbox, stark.id)).toHaveLength(2);
    expect(await invoicesOf(stark.ctx)).toHaveLength(2);
  });
});
