import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { acmeOwnerCtx, useFixture } from '../../../test/helper';
import { adminEvents, tenants } from '../../db/schema';
import type { Ctx } from '../../lib/context';
import { SandboxProvider } from '../subscriptions/payments.provider';
import { startTrial, updateSubscription } from '../subscriptions/subscriptions.service';
import { purgeExpiredEvents } from './events.service';

/**
 * The admin event log keeps what the subscription pays for (contracts EVENT_RETENTION_LIMITS): 90 days without
 * the Extended log retention add-on, 365 with it, 3650 without a subscription.
 */
const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const DAY_MS = 86_400_000;
const billing = () => ({
  database: f.database,
  provider: new SandboxProvider(`whsec_test_${randomBytes(16).toString('hex')}`),
});

let admin: string;
let acmeCtx: Ctx;

const getRetention = (tenant = 'acme') =>
  f.app.inject({ url: `/api/events/admin/${tenant}/retention`, headers: auth(admin) });
const putRetention = (days: number) =>
  f.app.inject({
    method: 'PUT',
    url: '/api/events/admin/acme/retention',
    headers: auth(admin),
    payload: { days },
  });
const storedDays = async () =>
  (
    await f.database.db
      .select({ days: tenants.eventRetentionDays })
      .from(tenants)
      .where(eq(tenants.id, f.acme.id))
  )[0].days;
const retentionChanges = async () =>
  (
    await f.database.db
      .select({ id: adminEvents.id })
      .from(adminEvents)
      .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, 'tenant.eventRetention.update')))
  ).length;
/** Old events of acme, `daysAgo` each; answers which of them are left after a purge. */
async function purgeOf(daysAgo: number[]) {
  const marker = `retention.test.${randomBytes(4).toString('hex')}`;
  await f.database.db.insert(adminEvents).values(
    daysAgo.map((days) => ({
      tenantId: f.acme.id,
      at: new Date(Date.now() - days * DAY_MS),
      actorName: 'old@test',
      action: marker,
      objectType: 'retention',
      objectName: String(days),
    })),
  );
  await purgeExpiredEvents(f.database);
  const left = await f.database.db
    .select({ name: adminEvents.objectName })
    .from(adminEvents)
    .where(eq(adminEvents.action, marker));
  return left.map((row) => Number(row.name)).sort((a, b) => a - b);
}

beforeAll(async () => {
  admin = await f.signIn('admin@acme.test');
  acmeCtx = await acmeOwnerCtx(f);
});

describe('event retention by subscription', () => {
  it('keeps up to 3650 days without a subscription', async () => {
    expect((await getRetention()).json()).toEqual({ days: 365, maxDays: 3650 });
    const res = await putRetention(1000);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ days: 1000, maxDays: 3650 });
    expect(await purgeOf([400, 999, 1001])).toEqual([400, 999]);
  });

  it('keeps at most 90 days on Business without Extended log retention', async () => {
    await f.database.tenantTx(f.acme.id, (tx) => startTrial(tx, acmeCtx));
    // The trial neither includes nor sells the add-on.
    expect((await getRetention()).json()).toEqual({ days: 90, maxDays: 90 });
    await updateSubscription(billing(), acmeCtx, { plan: 'business', seats: 10, paymentToken: 'tok_visa' });
    // The stored 1000 days stay; 90 apply.
    expect((await getRetention()).json()).toEqual({ days: 90, maxDays: 90 });
    expect(await storedDays()).toBe(1000);
  });

  it('refuses a PUT above the maximum (400 body.days) and changes nothing', async () => {
    const changes = await retentionChanges();
    const res = await putRetention(365);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errcode: 2,
      details: [{ path: 'body.days', message: 'validation.retentionAboveMaximum', values: { max: '90' } }],
    });
    expect(await storedDays()).toBe(1000);
    expect(await retentionChanges()).toBe(changes);
    expect((await getRetention()).json()).toEqual({ days: 90, maxDays: 90 });
    const ok = await putRetention(60);
    expect(ok.json()).toEqual({ days: 60, maxDays: 90 });
    expect(await retentionChanges()).toBe(changes + 1);
    expect((await putRetention(1000)).statusCode).toBe(400);
  });

  it('purges past the effective retention: the stored days, at most the maximum', async () => {
    expect(await purgeOf([59, 61, 89, 200])).toEqual([59]);
    expect((await putRetention(90)).statusCode).toBe(200);
    // Stored above the maximum (set before the plan was bought): the maximum applies.
    await f.database.db.update(tenants).set({ eventRetentionDays: 1000 }).where(eq(tenants.id, f.acme.id));
    expect(await purgeOf([89, 91, 400])).toEqual([89]);
  });

  it('keeps up to 365 days with the add-on', async () => {
    await updateSubscription(billing(), acmeCtx, { addOns: ['extendedRetention'] });
    expect((await getRetention()).json()).toEqual({ days: 365, maxDays: 365 });
    expect(await purgeOf([89, 91, 364, 366])).toEqual([89, 91, 364]);
    expect((await putRetention(366)).json().details).toEqual([
      { path: 'body.days', message: 'validation.retentionAboveMaximum', values: { max: '365' } },
    ]);
    expect((await putRetention(365)).json()).toEqual({ days: 365, maxDays: 365 });
    // Another tenant, without a subscription, keeps its own limit.
    const globex = await f.signIn('admin@globex.test');
    const other = await f.app.inject({ url: '/api/events/admin/globex/retention', headers: auth(globex) });
    expect(other.json()).toEqual({ days: 365, maxDays: 3650 });
  });
});
