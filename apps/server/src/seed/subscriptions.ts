import { and, eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { tenants, users } from '../db/schema';
import type { Ctx } from '../lib/context';
import { SandboxProvider } from '../modules/subscriptions/payments.provider';
import {
  addMonths,
  type BillingDeps,
  liveUsage,
  recordUsagePoint,
  runBilling,
  setPaymentMethod,
  snapshotUsage,
  startTrial,
  updateSubscription,
} from '../modules/subscriptions/subscriptions.service';

/**
 * The demo's subscriptions, through the real services with the sandbox provider and a moving clock:
 * - acme bought the Business plan (100 seats, monthly) with the Extended log retention add-on (its admin events are
 *   kept up to 365 days) and a Visa card four months ago; its second renewal was declined (past due) and paid on
 *   retry the next day with the card replaced; 60 days of usage points.
 * - globex is on the trial, 10 days left (with room for the e2e journey's 10 000-row import).
 */
const DAY_MS = 86_400_000;

async function ownerCtx(database: Database, name: string): Promise<Ctx | null> {
  const [tenant] = await database.db.select().from(tenants).where(eq(tenants.name, name));
  if (!tenant) return null;
  const [owner] = await database.db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenant.id), eq(users.role, 'owner')));
  if (!owner) return null;
  return {
    tenant: { id: tenant.id, name: tenant.name, kind: 'customer' },
    actor: {
      id: owner.id,
      username: owner.username,
      role: 'owner',
      usertype: 1,
      tenantId: tenant.id,
      tenantName: tenant.name,
      tenantKind: 'customer',
      sessionHash: '',
    },
    ip: null,
  };
}

export async function seedSubscriptions(database: Database, config: Config, now = new Date()): Promise<void> {
  const at = (time: Date): BillingDeps => ({
    database,
    provider: new SandboxProvider(config.paymentWebhookSecret ?? config.paymentWebhookDevSecret, () => time),
    clock: () => time,
  });
  const acme = await ownerCtx(database, 'acme');
  if (acme) {
    // Bought five days short of four months ago: three renewals have passed, the next is in five days.
    const bought = new Date(addMonths(now, -4).getTime() + 5 * DAY_MS);
    const trialStart = new Date(bought.getTime() - 9 * DAY_MS);
    await database.tenantTx(acme.tenant.id, (tx) => startTrial(tx, acme, trialStart));
    await updateSubscription(at(bought), acme, {
      plan: 'business',
      billingCycle: 'monthly',
      seats: 100,
      addOns: ['extendedRetention'],
      paymentToken: 'tok_visa',
    });
    const hour = 3_600_000;
    await runBilling(at(new Date(addMonths(bought, 1).getTime() + hour)));
    // The card is replaced by one the bank declines: the second renewal fails, and is paid the next day.
    const second = addMonths(bought, 2);
    await setPaymentMethod(at(new Date(second.getTime() - DAY_MS)), acme, 'tok_chargeCustomerFail');
    await runBilling(at(new Date(second.getTime() + hour)));
    await setPaymentMethod(at(new Date(second.getTime() + DAY_MS)), acme, 'tok_visa');
    await runBilling(at(new Date(addMonths(bought, 3).getTime() + hour)));

    // 60 days of usage, growing to today's numbers.
    const live = await liveUsage(database, acme.tenant.id);
    for (let daysAgo = 60; daysAgo >= 1; daysAgo--) {
      const day = new Date(now.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
      const share = 1 - daysAgo / 120;
      await recordUsagePoint(database, acme.tenant.id, day, {
        users: Math.round(live.users * share),
        devices: Math.round(live.devices * share),
        seats: 100,
      });
    }
  }
  const globex = await ownerCtx(database, 'globex');
  if (globex) {
    // Four days into its 14: ten days left.
    await database.tenantTx(globex.tenant.id, (tx) =>
      startTrial(tx, globex, new Date(now.getTime() - 4 * DAY_MS), { seats: 12_000 }),
    );
  }
  await snapshotUsage(at(now), now);
}
