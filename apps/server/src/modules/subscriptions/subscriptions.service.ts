import { randomUUID } from 'node:crypto';
import {
  ADD_ON_SKUS,
  ADD_ONS,
  type AddOnSku,
  type BillingCycle,
  CURRENCY,
  type ErrorDetail,
  type Locale,
  PAID_PLAN_SKUS,
  type PartnerUsage,
  type PartnerUsageQuery,
  type Payment,
  type PaymentListQuery,
  PLAN_SKUS,
  PLANS,
  type PlanCatalogue,
  type PlanSku,
  type PlanState,
  priceOf,
  purchasableAddOns,
  quoteChange,
  type Subscription,
  type SubscriptionEventKind,
  type SubscriptionHistoryQuery,
  type SubscriptionStatus,
  type SubscriptionUpdateInput,
  TRIAL_DAYS,
  TRIAL_SEATS,
  type UsageQuery,
  type UsageSeries,
} from '@palisade/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, forbidden, invalid, notFound } from '../../lib/errors';
import { invoicePdf } from './invoice.pdf';
import { type PaymentProvider, WebhookClosedError, WebhookSignatureError } from './payments.provider';
import * as repo from './subscriptions.repository';

/**
 * Subscriptions (docs/subscriptions.md): a tenant's plan, seats and add-ons, its card at the payment provider,
 * invoices charged each period with retries, the history and the usage. A tenant without a subscription has no
 * seat limit.
 */

export interface BillingDeps {
  database: Database;
  provider: PaymentProvider;
  /** Now; tests move it (the retry schedule, trial ends, renewals). */
  clock?: () => Date;
}

const DAY_MS = 86_400_000;
/** A failed invoice is retried this many days after its first failure; after the last, the subscription expires. */
export const RETRY_AFTER_DAYS = [1, 3, 5] as const;

const nowOf = (deps: BillingDeps) => (deps.clock ? deps.clock() : new Date());
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The same day `months` months later (the last day of a shorter month), in UTC. */
export function addMonths(at: Date, months: number): Date {
  const d = new Date(at);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}
const periodEnd = (start: Date, cycle: BillingCycle) => addMonths(start, cycle === 'yearly' ? 12 : 1);

/** Who did it, for the history: the administrator's name, or null for the system. */
type Who = Pick<Ctx, 'ip'> & {
  tenant: { id: string; name?: string };
  actor: { id: string | null; username: string; tenantId?: string; tenantName?: string } | null;
};
const actorName = (who: Who) => who.actor?.username ?? null;
const systemIn = (tenantId: string): Who => ({ tenant: { id: tenantId }, actor: null, ip: null });

// ─── Presenting ──────────────────────────────────────────────────────────────────────────────────────────────

function present(
  row: repo.SubscriptionRow,
  method: repo.PaymentMethodRow | null,
  used: { users: number; devices: number },
  tenantName: string,
): Subscription {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  const isRunning = row.status === 'active' || row.status === 'past_due';
  const scheduled = isRunning && row.currentPeriodEnd ? row.scheduledChange : null;
  const next = scheduled ?? row;
  const price = priceOf(next.plan, next.billingCycle, next.seats, next.addOns);
  return {
    tenant: tenantName,
    plan: row.plan,
    status: row.status,
    billingCycle: row.billingCycle,
    seats: row.seats,
    used,
    trialEndsAt: row.status === 'trial' ? iso(row.trialEndsAt) : null,
    currentPeriodStart: iso(row.currentPeriodStart),
    currentPeriodEnd: iso(row.currentPeriodEnd),
    renewsAt: isRunning && !row.cancelAtPeriodEnd ? iso(row.currentPeriodEnd) : null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    cancelledAt: iso(row.cancelledAt),
    addOns: row.addOns,
    scheduledChange:
      scheduled && row.currentPeriodEnd
        ? { ...scheduled, addOns: [...scheduled.addOns], effectiveAt: row.currentPeriodEnd.toISOString() }
        : null,
    paymentMethod: method
      ? { brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear }
      : null,
    price: { currency: CURRENCY, total: price.total, lines: price.lines },
    cancellable: PLANS[row.plan].cancellable && isRunning && !row.cancelAtPeriodEnd,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function presentPayment(row: repo.PaymentRow): Payment {
  return {
    id: row.id,
    number: row.number,
    periodStart: row.periodStart.toISOString(),
    periodEnd: row.periodEnd.toISOString(),
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    failureCode: row.failureCode,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    lines: row.lines,
  };
}

/** What a history row and the admin log keep of a subscription. */
const logged = (
  row: Pick<repo.SubscriptionRow, 'plan' | 'status' | 'billingCycle' | 'seats' | 'addOns'>,
) => ({
  plan: row.plan,
  status: row.status,
  billingCycle: row.billingCycle,
  seats: row.seats,
  addOns: row.addOns,
});

const stateOf = (row: PlanState): repo.PlanState => ({
  plan: row.plan,
  billingCycle: row.billingCycle,
  seats: row.seats,
  addOns: [...row.addOns].sort(),
});
const sameState = (a: PlanState, b: PlanState) => JSON.stringify(stateOf(a)) === JSON.stringify(stateOf(b));

/** The history rows of a change from one plan state to another: one per changed field and add-on. */
function changeEvents(
  from: PlanState,
  to: PlanState,
): Array<[SubscriptionEventKind, Record<string, unknown>, Record<string, unknown>]> {
  const changes: Array<[SubscriptionEventKind, Record<string, unknown>, Record<string, unknown>]> = [];
  const addOns = [...to.addOns].sort();
  if (from.plan !== to.plan) changes.push(['plan_changed', { plan: from.plan }, { plan: to.plan }]);
  if (from.billingCycle !== to.billingCycle) {
    changes.push([
      'billing_cycle_changed',
      { billingCycle: from.billingCycle },
      { billingCycle: to.billingCycle },
    ]);
  }
  if (from.seats !== to.seats) changes.push(['seats_changed', { seats: from.seats }, { seats: to.seats }]);
  for (const addOn of addOns.filter((a) => !from.addOns.includes(a))) {
    changes.push(['addon_added', { addOns: [...from.addOns] }, { addOn, addOns }]);
  }
  for (const addOn of from.addOns.filter((a) => !addOns.includes(a))) {
    changes.push(['addon_removed', { addOns: [...from.addOns] }, { addOn, addOns }]);
  }
  return changes;
}

async function load(tx: Tx, tenantId: string, lock = false) {
  const row = await repo.getSubscription(tx, tenantId, lock);
  if (!row) throw notFound('Subscription');
  return row;
}

async function presentOf(tx: Tx, tenantId: string, tenantName: string) {
  const row = await load(tx, tenantId);
  return present(
    row,
    await repo.getPaymentMethod(tx, tenantId),
    await repo.liveCounts(tx, tenantId),
    tenantName,
  );
}

async function history(
  tx: Tx,
  who: Who,
  kind: SubscriptionEventKind,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  at: Date,
) {
  await repo.insertEvent(tx, who.tenant.id, { kind, before, after, actor: actorName(who), at });
}

// ─── Errors ──────────────────────────────────────────────────────────────────────────────────────────────────

const planValues = (plan: PlanSku) => ({ plan: PLANS[plan].name, planSku: plan });

/** 409 `seat_limit_reached`, naming the plan and its seats (contracts SeatLimitValues). */
function seatLimitReached(row: repo.SubscriptionRow, used: number) {
  return new AppError(
    'seat_limit_reached',
    `Your ${PLANS[row.plan].name} plan includes ${row.seats} seats and all are in use.`,
    [
      {
        path: 'subscription.seats',
        message: 'error.seatLimitReached',
        values: { ...planValues(row.plan), seats: String(row.seats), used: String(used) },
      },
    ],
  );
}

function paymentDeclined(plan: PlanSku, reason: string, path: string) {
  return new AppError('payment_declined', `The payment was declined (${reason}).`, [
    { path, message: 'error.paymentDeclined', values: { ...planValues(plan), reason } },
  ]);
}

const conflict = (message: string, key: string) =>
  new AppError('conflict', message, [{ path: 'subscription', message: key }]);

// ─── Seats (for the users module) ────────────────────────────────────────────────────────────────────────────

/**
 * Refuses (409 `seat_limit_reached`, naming the plan and its seats) adding `adding` end users to a tenant whose
 * end users already take every seat. Runs in the caller's transaction before its insert, and holds the
 * subscription's row until it commits, so two additions at once cannot both take the last seat. No subscription:
 * no limit.
 */
export async function assertSeatsAvailable(tx: Tx, tenantId: string, adding = 1): Promise<void> {
  const row = await repo.getSubscription(tx, tenantId, true);
  if (!row) return;
  const { users } = await repo.liveCounts(tx, tenantId);
  if (users + adding > row.seats) throw seatLimitReached(row, users);
}

/** How many end users can still be added (null: no limit), for an import to mark the rows past the limit. */
export async function seatsLeft(tx: Tx, tenantId: string): Promise<number | null> {
  const row = await repo.getSubscription(tx, tenantId);
  if (!row) return null;
  const { users } = await repo.liveCounts(tx, tenantId);
  return Math.max(0, row.seats - users);
}

/**
 * Plan, status, trial end and add-ons (bought; not those the plan includes) of each given tenant with a
 * subscription, keyed by tenant id: the partner console's rows, what a tenant's subscription pays for (the feature
 * flags, the event log's retention).
 */
export async function subscriptionSummaries(database: Database, tenantIds: readonly string[]) {
  const rows = await repo.subscriptionSummaries(database.db, tenantIds);
  return new Map(
    rows.map((r) => [
      r.tenant_id,
      {
        plan: r.plan as PlanSku,
        status: r.status as SubscriptionStatus,
        trialEndsAt: r.trial_ends_at === null ? null : new Date(r.trial_ends_at).toISOString(),
        addOns: r.add_ons,
      },
    ]),
  );
}

// ─── Trials (for the tenants and session modules) ────────────────────────────────────────────────────────────

/**
 * Starts the 14-day trial of a new tenant in the caller's transaction: 10 seats, or as many as it already has end
 * users (`seats` grants more: the demo's trial tenant takes the 10 000-row import journey). Does nothing when the
 * tenant has a subscription.
 */
export async function startTrial(tx: Tx, who: Who, now: Date = new Date(), options: { seats?: number } = {}) {
  const tenantId = who.tenant.id;
  const { users, devices } = await repo.liveCounts(tx, tenantId);
  const seats = Math.max(TRIAL_SEATS, users, options.seats ?? 0);
  const trialEndsAt = new Date(now.getTime() + TRIAL_DAYS * DAY_MS);
  const row = await repo.insertSubscription(tx, {
    tenantId,
    plan: 'trial',
    status: 'trial',
    billingCycle: 'monthly',
    seats,
    trialEndsAt,
    provider: 'sandbox',
    now,
  });
  if (!row) return;
  const after = { ...logged(row), trialEndsAt: trialEndsAt.toISOString() };
  await history(tx, who, 'trial_started', null, after, now);
  await repo.saveUsage(tx, tenantId, dayOf(now), { users, devices, seats }, now);
  await recordEvent(tx, who, {
    action: 'subscription.start',
    objectType: 'subscription',
    objectId: tenantId,
    objectName: who.tenant.name ?? null,
    after,
  });
}

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────────────────────

export function planCatalogue(): PlanCatalogue {
  return {
    currency: CURRENCY,
    plans: PLAN_SKUS.map((sku) => {
      const p = PLANS[sku];
      return {
        sku,
        name: p.name,
        pricePerSeat: p.pricePerSeat,
        minSeats: p.minSeats,
        maxSeats: p.maxSeats,
        trialDays: p.trialDays,
        cancellable: p.cancellable,
        features: [...p.features],
        addOns: [...purchasableAddOns(sku)],
        includedAddOns: [...p.includedAddOns],
      };
    }),
    addOns: ADD_ON_SKUS.map((sku) => {
      const { name, unit, price, offered } = ADD_ONS[sku];
      return { sku, name, unit, price, offered };
    }),
  };
}

export function getSubscription(database: Database, ctx: Ctx): Promise<Subscription> {
  return database.tenantTx(ctx.tenant.id, (tx) => presentOf(tx, ctx.tenant.id, ctx.tenant.name));
}

export async function listHistory(database: Database, ctx: Ctx, query: SubscriptionHistoryQuery) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    await load(tx, ctx.tenant.id);
    const { rows, total } = await repo.listEvents(tx, ctx.tenant.id, query);
    return {
      items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      total,
    };
  });
}

export async function listPayments(database: Database, ctx: Ctx, query: PaymentListQuery) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const { rows, total } = await repo.listPayments(tx, ctx.tenant.id, query);
    return { items: rows.map(presentPayment), total };
  });
}

/** An invoice as a PDF in `lng`, else its tenant owner's language, else English. */
export async function invoiceFile(database: Database, ctx: Ctx, id: string, lng: Locale | undefined) {
  const found = await database.tenantTx(ctx.tenant.id, async (tx) => ({
    payment: await repo.getPayment(tx, ctx.tenant.id, id),
    tenant: await repo.tenantHeader(tx, ctx.tenant.id),
  }));
  if (!found.payment || !found.tenant) throw notFound('Invoice');
  const language: Locale = lng ?? (found.tenant.language === 'de' ? 'de' : 'en');
  const payment = presentPayment(found.payment);
  return { fileName: `${payment.number}.pdf`, pdf: await invoicePdf(payment, found.tenant, language) };
}

/** The usage points of a range of days (`from`/`to`, or the last `days`, 30 by default); today's is live. */
export async function usage(deps: BillingDeps, ctx: Ctx, query: UsageQuery): Promise<UsageSeries> {
  const now = nowOf(deps);
  const today = dayOf(now);
  const to = query.to ?? today;
  const fromDate =
    query.from ?? dayOf(new Date(Date.parse(`${to}T00:00:00Z`) - ((query.days ?? 30) - 1) * DAY_MS));
  const details: ErrorDetail[] = [];
  if (fromDate > to) details.push({ path: 'query.from', message: 'validation.invalid' });
  else if ((Date.parse(to) - Date.parse(fromDate)) / DAY_MS > 366) {
    details.push({ path: 'query.from', message: 'validation.invalid' });
  }
  if (details.length > 0) throw invalid(details);
  return deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const row = await load(tx, ctx.tenant.id);
    if (fromDate <= today && today <= to) {
      const counts = await repo.liveCounts(tx, ctx.tenant.id);
      await repo.saveUsage(tx, ctx.tenant.id, today, { ...counts, seats: row.seats }, now);
    }
    return { from: fromDate, to, points: await repo.listUsage(tx, ctx.tenant.id, fromDate, to) };
  });
}

/** The live end user and device counts of a tenant. */
export function liveUsage(database: Database, tenantId: string) {
  return database.tenantTx(tenantId, (tx) => repo.liveCounts(tx, tenantId));
}

/** Writes one day's usage point (the daily job's, and the demo's history). */
export function recordUsagePoint(
  database: Database,
  tenantId: string,
  day: string,
  point: { users: number; devices: number; seats: number },
  now: Date = new Date(),
) {
  return database.tenantTx(tenantId, (tx) => repo.saveUsage(tx, tenantId, day, point, now));
}

/**
 * The rollup of a partner console: every tenant the partner manages (every tenant for the platform) with plan,
 * status, seats and live use, paged, and totals over all of them. Partner and platform admins only (403); a
 * customer tenant has no console (404).
 */
export async function partnerUsage(
  database: Database,
  ctx: Ctx,
  query: PartnerUsageQuery,
): Promise<PartnerUsage> {
  if (ctx.actor.role !== 'partner_admin' && ctx.actor.role !== 'platform_admin') throw forbidden();
  let scope: repo.UsageScope;
  if (ctx.tenant.kind === 'platform') scope = { all: true };
  else if (ctx.tenant.kind === 'partner') scope = { partnerId: ctx.tenant.id };
  else throw notFound('Partner');
  const result = await repo.partnerUsage(database.db, scope, query);
  const byStatus: Record<string, number> = {};
  const byPlan: Record<string, number> = {};
  for (const g of result.groups) {
    byStatus[g.status] = (byStatus[g.status] ?? 0) + g.n;
    byPlan[g.plan] = (byPlan[g.plan] ?? 0) + g.n;
  }
  return { items: result.rows, total: result.total, totals: { ...result.totals, byStatus, byPlan } };
}

// ─── Changing ────────────────────────────────────────────────────────────────────────────────────────────────

/** Attaches a token's card, creating the provider's customer first when needed; 402 when the card is refused. */
async function attachCard(
  deps: BillingDeps,
  row: repo.SubscriptionRow,
  token: string,
  path: string,
  plan: PlanSku,
) {
  const customerId =
    row.providerCustomerId ??
    (await deps.provider.createCustomer({ tenantId: row.tenantId, name: row.tenantId })).customerId;
  const attached = await deps.provider.attachPaymentMethod(customerId, token);
  if (!attached.ok) throw paymentDeclined(plan, attached.code, path);
  const method: repo.PaymentMethodRow = {
    provider: deps.provider.name,
    providerMethodId: attached.card.methodId,
    brand: attached.card.brand,
    last4: attached.card.last4,
    expMonth: attached.card.expMonth,
    expYear: attached.card.expYear,
  };
  return { customerId, method };
}

const cardOf = (m: repo.PaymentMethodRow) => ({ brand: m.brand, last4: m.last4 });

async function saveCard(
  tx: Tx,
  ctx: Who,
  customerId: string,
  method: repo.PaymentMethodRow,
  before: repo.PaymentMethodRow | null,
  now: Date,
) {
  await repo.savePaymentMethod(tx, ctx.tenant.id, method, now);
  await repo.updateSubscription(tx, ctx.tenant.id, { providerCustomerId: customerId }, now);
  const change = {
    before: before ? { paymentMethod: cardOf(before) } : null,
    after: { paymentMethod: cardOf(method) },
  };
  await history(tx, ctx, 'payment_method_updated', change.before, change.after, now);
  await recordEvent(tx, ctx, {
    action: 'subscription.paymentMethod.update',
    objectType: 'subscription',
    objectId: ctx.tenant.id,
    objectName: ctx.tenant.name ?? null,
    ...change,
  });
}

/** Validates a change against the subscription as it is: the plan state asked for, or 400 with every detail. */
function resolveChange(
  row: repo.SubscriptionRow,
  input: SubscriptionUpdateInput,
  users: number,
  hasPaymentMethod: boolean,
): { next: repo.PlanState; isStarting: boolean } {
  const isStarting = row.status === 'trial' || row.status === 'cancelled' || row.status === 'expired';
  if (isStarting && !input.plan) throw invalid([{ path: 'body.plan', message: 'validation.required' }]);
  const plan = (input.plan ?? row.plan) as PlanSku;
  const billingCycle = input.billingCycle ?? row.billingCycle;
  const definition = PLANS[plan];
  const seats =
    input.seats ??
    (isStarting ? Math.max(definition.minSeats, users, Math.min(row.seats, definition.maxSeats)) : row.seats);
  const addOns = [...new Set(input.addOns ?? (isStarting ? [] : row.addOns))].sort() as AddOnSku[];
  const details: ErrorDetail[] = [];
  if (!(PAID_PLAN_SKUS as readonly string[]).includes(plan)) {
    details.push({ path: 'body.plan', message: 'validation.choice' });
  }
  if (seats < definition.minSeats) {
    details.push({
      path: 'body.seats',
      message: 'validation.seatsBelowMinimum',
      values: { min: String(definition.minSeats) },
    });
  } else if (seats > definition.maxSeats) {
    details.push({
      path: 'body.seats',
      message: 'validation.seatsAboveMaximum',
      values: { max: String(definition.maxSeats), plan: definition.name },
    });
  } else if (seats < users) {
    details.push({
      path: 'body.seats',
      message: 'validation.seatsBelowUsed',
      values: { used: String(users) },
    });
  }
  // Only add-ons that are sold, and sold with the plan: each named one at its index, or the ones kept from the
  // subscription (`addOns` left out) at `body.addOns`.
  const sellable = purchasableAddOns(plan);
  const addOnIssue = (addOn: AddOnSku) =>
    !ADD_ONS[addOn].offered
      ? 'validation.addOnNotOffered'
      : !sellable.includes(addOn)
        ? 'validation.addOnNotAvailable'
        : null;
  const asked = input.addOns ?? addOns;
  asked.forEach((addOn, index) => {
    const message = addOnIssue(addOn);
    if (!message) return;
    const path = input.addOns ? `body.addOns.${index}` : 'body.addOns';
    details.push({ path, message, values: { item: addOn } });
  });
  if (isStarting && !hasPaymentMethod) {
    details.push({ path: 'body.paymentToken', message: 'validation.paymentMethodRequired' });
  }
  if (details.length > 0) throw invalid(details);
  return { next: { plan, billingCycle, seats, addOns }, isStarting };
}

/** How long a charge may stay pending before the billing pass's reconciler settles it (a crash, a lost answer). */
export const RECONCILE_AFTER_MS = 5 * 60_000;

const requesterOf = (ctx: Ctx): repo.Requester => ({
  id: ctx.actor.id,
  username: ctx.actor.username,
  tenantId: ctx.actor.tenantId,
  tenantName: ctx.actor.tenantName,
  ip: ctx.ip,
});
/** Who a charge's change is recorded for: whoever asked for it, whenever it is settled. */
const whoOf = (tenantId: string, tenantName: string | undefined, by: repo.Requester | null): Who =>
  by
    ? {
        tenant: { id: tenantId, name: tenantName },
        actor: { id: by.id, username: by.username, tenantId: by.tenantId, tenantName: by.tenantName },
        ip: by.ip,
      }
    : { ...systemIn(tenantId), tenant: { id: tenantId, name: tenantName } };

/**
 * Saves a charge intent (in the transaction that holds the subscription's row): its idempotency key is one per
 * (subscription, period, action) — `<tenant>:<period start>:<action>:<n>`, n counting that action's attempts in
 * the period, so a retry after a decline is a new charge and a repeat of the same attempt is not.
 */
async function newCharge(
  tx: Tx,
  ctx: Ctx,
  charge: Pick<
    repo.ChargeRow,
    'action' | 'amount' | 'lines' | 'periodStart' | 'periodEnd' | 'change' | 'customerId' | 'method'
  >,
  now: Date,
) {
  const tenantId = ctx.tenant.id;
  const n = (await repo.countCharges(tx, tenantId, charge.action, charge.periodStart)) + 1;
  return repo.insertCharge(tx, {
    ...charge,
    tenantId,
    idempotencyKey: `${tenantId}:${charge.periodStart.toISOString()}:${charge.action}:${n}`,
    paymentId: randomUUID(),
    currency: CURRENCY,
    requestedBy: requesterOf(ctx),
    now,
  });
}

/**
 * Settles a charge the provider made (in a transaction holding the subscription's row, then the charge's): the
 * card it used is kept on file, the change takes effect, the invoice is written as paid, and the history and the
 * admin log name who asked. Run once: by the request, the webhook or the reconciler, whichever is first.
 */
async function settleCharge(tx: Tx, charge: repo.ChargeRow, providerChargeId: string | null, now: Date) {
  const tenantId = charge.tenantId;
  const current = await load(tx, tenantId, true);
  const tenant = await repo.tenantHeader(tx, tenantId);
  const who = whoOf(tenantId, tenant?.name, charge.requestedBy);
  const onFile = await repo.getPaymentMethod(tx, tenantId);
  if (onFile?.providerMethodId !== charge.method.providerMethodId) {
    await saveCard(tx, who, charge.customerId, charge.method, onFile, now);
  }
  const { next, atPeriodEnd } = charge.change;
  const before = logged(current);
  let after: ReturnType<typeof logged>;
  if (charge.action === 'start') {
    await repo.updateSubscription(
      tx,
      tenantId,
      {
        ...next,
        status: 'active',
        trialEndsAt: null,
        currentPeriodStart: charge.periodStart,
        currentPeriodEnd: charge.periodEnd,
        cancelAtPeriodEnd: false,
        cancelledAt: null,
        scheduledChange: null,
      },
      now,
    );
    after = logged({ ...next, status: 'active' });
    await history(tx, who, 'plan_changed', before, after, now);
  } else {
    const { plan, seats, addOns } = next;
    await repo.updateSubscription(tx, tenantId, { plan, seats, addOns, scheduledChange: atPeriodEnd }, now);
    after = logged({ ...current, plan, seats, addOns });
    for (const [kind, b, a] of changeEvents(current, { ...current, plan, seats, addOns })) {
      await history(tx, who, kind, b, a, now);
    }
    if (atPeriodEnd) {
      await history(
        tx,
        who,
        'change_scheduled',
        stateOf({ ...current, plan, seats, addOns }),
        { ...atPeriodEnd, effectiveAt: charge.periodEnd.toISOString() },
        now,
      );
    }
  }
  const invoice = await repo.insertPayment(tx, tenantId, {
    id: charge.paymentId,
    periodStart: charge.action === 'start' ? charge.periodStart : charge.createdAt,
    periodEnd: charge.periodEnd,
    amount: charge.amount,
    lines: charge.lines,
    now,
  });
  await repo.updatePayment(
    tx,
    tenantId,
    invoice.id,
    { status: 'paid', attempts: 1, paidAt: now, providerChargeId },
    now,
  );
  await history(tx, who, 'payment_succeeded', null, { invoice: invoice.number, amount: charge.amount }, now);
  const counts = await repo.liveCounts(tx, tenantId);
  await repo.saveUsage(tx, tenantId, dayOf(now), { ...counts, seats: next.seats }, now);
  await recordEvent(tx, who, {
    action: 'subscription.update',
    objectType: 'subscription',
    objectId: tenantId,
    objectName: tenant?.name ?? null,
    before,
    after: atPeriodEnd ? { ...after, scheduledChange: atPeriodEnd } : after,
  });
  await repo.finishCharge(
    tx,
    tenantId,
    charge.id,
    { status: 'settled', providerChargeId, failureCode: null },
    now,
  );
}

type ChargeOutcome = { status: 'settled' } | { status: 'failed'; code: string };

/**
 * Takes a saved charge to its end: charges it at the provider with its idempotency key (a repeat charges
 * nothing more: the provider answers the first result), then settles it or records the decline — unless someone
 * else did meanwhile. The request, a request that repeats it, and the reconciler all go through here.
 */
async function driveCharge(deps: BillingDeps, tenantId: string, chargeId: string): Promise<ChargeOutcome> {
  const { database } = deps;
  const now = nowOf(deps);
  const ended = (c: repo.ChargeRow | null): ChargeOutcome | null =>
    !c
      ? { status: 'failed', code: 'not_found' }
      : c.status === 'settled'
        ? { status: 'settled' }
        : c.status === 'failed'
          ? { status: 'failed', code: c.failureCode ?? 'card_declined' }
          : null;
  const charge = await database.tenantTx(tenantId, (tx) => repo.getCharge(tx, tenantId, chargeId));
  const done = ended(charge);
  if (done || !charge) return done ?? { status: 'failed', code: 'not_found' };
  const result = await deps.provider.charge({
    customerId: charge.customerId,
    methodId: charge.method.providerMethodId,
    amount: charge.amount,
    currency: charge.currency,
    idempotencyKey: charge.idempotencyKey,
    metadata: { tenantId, paymentId: charge.paymentId },
  });
  return database.tenantTx(tenantId, async (tx) => {
    // The subscription's row first, as every writer of a subscription takes it, then the charge's.
    await load(tx, tenantId, true);
    const locked = await repo.getCharge(tx, tenantId, chargeId, true);
    const meanwhile = ended(locked);
    if (meanwhile || !locked) return meanwhile ?? { status: 'failed', code: 'not_found' };
    if (result.status === 'succeeded') {
      await settleCharge(tx, locked, result.chargeId, now);
      return { status: 'settled' };
    }
    await repo.finishCharge(
      tx,
      tenantId,
      chargeId,
      { status: 'failed', providerChargeId: result.chargeId || null, failureCode: result.code },
      now,
    );
    return { status: 'failed', code: result.code };
  });
}

/**
 * A change that is not charged now, in the transaction holding the subscription: what costs more but rounds
 * to nothing takes effect at once; what does not cost more (and a new billing cycle) is scheduled for the
 * period end; a change back to the subscription as it is drops the scheduled one.
 */
async function applyUncharged(
  tx: Tx,
  ctx: Ctx,
  current: repo.SubscriptionRow,
  next: repo.PlanState,
  quote: ReturnType<typeof quoteChange>,
  now: Date,
) {
  const tenantId = ctx.tenant.id;
  const before = logged(current);
  const immediate =
    quote.when === 'now'
      ? { plan: next.plan, seats: next.seats, addOns: next.addOns }
      : { plan: current.plan, seats: current.seats, addOns: current.addOns };
  const nowState = { ...current, ...immediate };
  const scheduled = quote.when === 'none' ? null : (quote.atPeriodEnd as repo.PlanState | null);
  const hasScheduleChange =
    JSON.stringify(scheduled && stateOf(scheduled)) !==
    JSON.stringify(current.scheduledChange && stateOf(current.scheduledChange));
  const events = changeEvents(current, nowState);
  if (events.length === 0 && !hasScheduleChange) return;
  await repo.updateSubscription(tx, tenantId, { ...immediate, scheduledChange: scheduled }, now);
  for (const [kind, b, a] of events) await history(tx, ctx, kind, b, a, now);
  if (hasScheduleChange) {
    const effectiveAt = current.currentPeriodEnd?.toISOString() ?? null;
    await history(
      tx,
      ctx,
      'change_scheduled',
      current.scheduledChange ? { ...current.scheduledChange, effectiveAt } : stateOf(nowState),
      scheduled ? { ...scheduled, effectiveAt } : stateOf(nowState),
      now,
    );
  }
  const counts = await repo.liveCounts(tx, tenantId);
  await repo.saveUsage(tx, tenantId, dayOf(now), { ...counts, seats: nowState.seats }, now);
  await recordEvent(tx, ctx, {
    action: 'subscription.update',
    objectType: 'subscription',
    objectId: tenantId,
    objectName: ctx.tenant.name,
    before: current.scheduledChange ? { ...before, scheduledChange: current.scheduledChange } : before,
    after: { ...logged(nowState), scheduledChange: scheduled },
  });
}

/**
 * Changes plan, cycle, seats or add-ons (docs/subscriptions.md, "Changes and proration"). Moving onto a paid
 * plan from a trial (or after the subscription ended) starts a period and charges it; on a running plan a change
 * that costs more is charged for the rest of the period (contracts `quoteChange`) and one that does not waits
 * for the period end. A charge is saved first (under the subscription's row lock, one idempotency key per
 * subscription, period and action), then made, then settled: nothing takes effect before it is paid, a declined
 * card answers 402 and leaves the old plan, and the same change asked again while its charge is open joins that
 * charge instead of making another (another change meanwhile: 409).
 */
export async function updateSubscription(
  deps: BillingDeps,
  ctx: Ctx,
  input: SubscriptionUpdateInput,
): Promise<Subscription> {
  const { database } = deps;
  const tenantId = ctx.tenant.id;
  const now = nowOf(deps);
  const first = await database.tenantTx(tenantId, async (tx) => ({
    row: await load(tx, tenantId),
    method: await repo.getPaymentMethod(tx, tenantId),
    counts: await repo.liveCounts(tx, tenantId),
  }));
  // Refused before a card is attached; checked again under the lock.
  const asked = resolveChange(first.row, input, first.counts.users, !!(input.paymentToken || first.method));
  const card = input.paymentToken
    ? await attachCard(deps, first.row, input.paymentToken, 'body.paymentToken', asked.next.plan)
    : null;

  const charge = await database.tenantTx(tenantId, async (tx) => {
    const current = await load(tx, tenantId, true);
    const method = await repo.getPaymentMethod(tx, tenantId);
    const { users } = await repo.liveCounts(tx, tenantId);
    const { next, isStarting } = resolveChange(current, input, users, !!(card || method));
    const period = { start: current.currentPeriodStart ?? now, end: current.currentPeriodEnd ?? now };
    const quote = isStarting ? null : quoteChange(current, next, period, now);
    const open = await repo.openCharge(tx, tenantId);
    if (open) {
      // The same change asked again (a double click, a retry after a lost answer) joins the open charge.
      const atEnd = open.change.atPeriodEnd;
      const isSame = quote
        ? quote.when === 'now' &&
          sameState(open.change.next, { ...next, billingCycle: current.billingCycle }) &&
          (atEnd && quote.atPeriodEnd ? sameState(atEnd, quote.atPeriodEnd) : atEnd === quote.atPeriodEnd)
        : sameState(open.change.next, next);
      if (open.action === (quote ? 'change' : 'start') && isSame) return open;
      throw conflict('Another change of the subscription is being paid.', 'validation.paymentInProgress');
    }
    const customerId = card?.customerId ?? current.providerCustomerId;
    const chargeMethod = card?.method ?? method;
    const payer = () => {
      if (!customerId || !chargeMethod) {
        throw invalid([{ path: 'body.paymentToken', message: 'validation.paymentMethodRequired' }]);
      }
      return { customerId, method: chargeMethod };
    };
    if (!quote) {
      const price = priceOf(next.plan, next.billingCycle, next.seats, next.addOns);
      return newCharge(
        tx,
        ctx,
        {
          action: 'start',
          amount: price.total,
          lines: price.lines,
          periodStart: now,
          periodEnd: periodEnd(now, next.billingCycle),
          change: { next, atPeriodEnd: null },
          ...payer(),
        },
        now,
      );
    }
    if (quote.when === 'now' && quote.amount > 0) {
      return newCharge(
        tx,
        ctx,
        {
          action: 'change',
          amount: quote.amount,
          lines: quote.lines,
          periodStart: period.start,
          periodEnd: period.end,
          change: {
            next: { ...next, billingCycle: current.billingCycle },
            atPeriodEnd: quote.atPeriodEnd as repo.PlanState | null,
          },
          ...payer(),
        },
        now,
      );
    }
    if (card) await saveCard(tx, ctx, card.customerId, card.method, method, now);
    await applyUncharged(tx, ctx, current, next, quote, now);
    return null;
  });
  if (charge) {
    const outcome = await driveCharge(deps, tenantId, charge.id);
    if (outcome.status === 'failed') {
      throw paymentDeclined(
        charge.change.next.plan,
        outcome.code,
        input.paymentToken ? 'body.paymentToken' : 'subscription',
      );
    }
  }
  return getSubscription(database, ctx);
}

/**
 * Replaces the card on file (402 and nothing saved when the provider refuses it). A subscription past due has
 * its unpaid invoices charged again at once with the new card.
 */
export async function setPaymentMethod(deps: BillingDeps, ctx: Ctx, token: string): Promise<Subscription> {
  const { database } = deps;
  const tenantId = ctx.tenant.id;
  const now = nowOf(deps);
  const { row, method } = await database.tenantTx(tenantId, async (tx) => ({
    row: await load(tx, tenantId),
    method: await repo.getPaymentMethod(tx, tenantId),
  }));
  const card = await attachCard(deps, row, token, 'body.token', row.plan);
  const open = await database.tenantTx(tenantId, async (tx) => {
    await load(tx, tenantId, true);
    await saveCard(tx, ctx, card.customerId, card.method, method, now);
    return repo.openPayments(tx, tenantId);
  });
  for (const payment of open) {
    if (payment.status === 'failed') await attemptPayment(deps, tenantId, payment.id, ctx);
  }
  return getSubscription(database, ctx);
}

/** Cancels at the end of the period. A trial cannot be cancelled (409 `trial_not_cancellable`, spec §4). */
export async function cancelSubscription(deps: BillingDeps, ctx: Ctx): Promise<Subscription> {
  const now = nowOf(deps);
  await deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const row = await load(tx, ctx.tenant.id, true);
    if (row.status === 'trial' || !PLANS[row.plan].cancellable) {
      throw new AppError('trial_not_cancellable', 'A trial cannot be cancelled.', [
        {
          path: 'subscription',
          message: 'error.trialNotCancellable',
          values: { ...planValues(row.plan), trialEndsAt: row.trialEndsAt?.toISOString() ?? '' },
        },
      ]);
    }
    if (row.status === 'cancelled' || row.status === 'expired' || row.cancelAtPeriodEnd) {
      throw conflict('The subscription is already cancelled.', 'validation.alreadyCancelled');
    }
    await repo.updateSubscription(tx, ctx.tenant.id, { cancelAtPeriodEnd: true, cancelledAt: now }, now);
    const before = { cancelAtPeriodEnd: false };
    const after = { cancelAtPeriodEnd: true, endsAt: row.currentPeriodEnd?.toISOString() ?? null };
    await history(tx, ctx, 'cancelled', before, after, now);
    await recordEvent(tx, ctx, {
      action: 'subscription.cancel',
      objectType: 'subscription',
      objectId: ctx.tenant.id,
      objectName: ctx.tenant.name,
      before,
      after,
    });
  });
  return getSubscription(deps.database, ctx);
}

/** Takes back a cancellation before the period ends (409 when nothing is cancelling). */
export async function resumeSubscription(deps: BillingDeps, ctx: Ctx): Promise<Subscription> {
  const now = nowOf(deps);
  await deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const row = await load(tx, ctx.tenant.id, true);
    if (!row.cancelAtPeriodEnd || (row.status !== 'active' && row.status !== 'past_due')) {
      throw conflict('The subscription is not cancelling.', 'validation.nothingToResume');
    }
    await repo.updateSubscription(tx, ctx.tenant.id, { cancelAtPeriodEnd: false, cancelledAt: null }, now);
    const before = { cancelAtPeriodEnd: true };
    const after = { cancelAtPeriodEnd: false, renewsAt: row.currentPeriodEnd?.toISOString() ?? null };
    await history(tx, ctx, 'resumed', before, after, now);
    await recordEvent(tx, ctx, {
      action: 'subscription.resume',
      objectType: 'subscription',
      objectId: ctx.tenant.id,
      objectName: ctx.tenant.name,
      before,
      after,
    });
  });
  return getSubscription(deps.database, ctx);
}

// ─── Charging, retries, renewals, expiry (the scheduler) ────────────────────────────────────────────────────

/** A status change the system made, in the history and the admin log (actor: the system). */
async function systemStatus(
  tx: Tx,
  who: Who,
  kind: SubscriptionEventKind,
  from: repo.SubscriptionRow['status'],
  to: repo.SubscriptionRow['status'],
  now: Date,
) {
  await repo.updateSubscription(tx, who.tenant.id, { status: to }, now);
  await history(tx, who, kind, { status: from }, { status: to }, now);
  await recordEvent(tx, who, {
    action: 'subscription.update',
    objectType: 'subscription',
    objectId: who.tenant.id,
    before: { status: from },
    after: { status: to },
  });
}

/**
 * Charges an unpaid invoice once (idempotency key: invoice and attempt, so two servers never charge twice) and
 * records the outcome. A failure makes the subscription past due and schedules the next try 1, 3 and 5 days
 * after the first failure; the failure after the last try expires the subscription. A success pays the invoice
 * and makes a past-due subscription active again once nothing else is unpaid.
 */
export async function attemptPayment(
  deps: BillingDeps,
  tenantId: string,
  paymentId: string,
  who: Who = systemIn(tenantId),
): Promise<'paid' | 'failed' | 'skipped'> {
  const { database } = deps;
  const now = nowOf(deps);
  const start = await database.tenantTx(tenantId, async (tx) => ({
    row: await repo.getSubscription(tx, tenantId),
    payment: await repo.getPayment(tx, tenantId, paymentId),
    method: await repo.getPaymentMethod(tx, tenantId),
  }));
  const { row, payment, method } = start;
  if (!row || !payment || payment.status === 'paid' || payment.status === 'refunded') return 'skipped';
  const attempt = payment.attempts + 1;
  const result =
    method && row.providerCustomerId
      ? await deps.provider.charge({
          customerId: row.providerCustomerId,
          methodId: method.providerMethodId,
          amount: payment.amount,
          currency: payment.currency,
          idempotencyKey: `${payment.id}:${attempt}`,
          metadata: { tenantId, paymentId: payment.id },
        })
      : { status: 'failed' as const, code: 'no_payment_method', retryable: false, chargeId: null };
  return database.tenantTx(tenantId, async (tx) => {
    const current = await repo.getPayment(tx, tenantId, paymentId, true);
    const sub = await load(tx, tenantId, true);
    // Another server (or a webhook) recorded this attempt meanwhile.
    if (!current || current.attempts !== payment.attempts || current.status === 'paid') return 'skipped';
    if (result.status === 'succeeded') {
      await repo.updatePayment(
        tx,
        tenantId,
        paymentId,
        {
          status: 'paid',
          attempts: attempt,
          paidAt: now,
          nextAttemptAt: null,
          failureCode: null,
          providerChargeId: result.chargeId,
        },
        now,
      );
      await history(
        tx,
        who,
        'payment_succeeded',
        null,
        { invoice: current.number, amount: current.amount, attempt },
        now,
      );
      const stillOpen = (await repo.openPayments(tx, tenantId)).length > 0;
      if (sub.status === 'past_due' && !stillOpen)
        await systemStatus(tx, who, 'resumed', 'past_due', 'active', now);
      return 'paid';
    }
    const firstFailedAt = current.firstFailedAt ?? now;
    const delay = RETRY_AFTER_DAYS[attempt - 1];
    const nextAttemptAt = delay === undefined ? null : new Date(firstFailedAt.getTime() + delay * DAY_MS);
    await repo.updatePayment(
      tx,
      tenantId,
      paymentId,
      {
        status: 'failed',
        attempts: attempt,
        firstFailedAt,
        nextAttemptAt,
        failureCode: result.code,
        ...(result.chargeId ? { providerChargeId: result.chargeId } : {}),
      },
      now,
    );
    await history(
      tx,
      who,
      'payment_failed',
      null,
      {
        invoice: current.number,
        amount: current.amount,
        attempt,
        reason: result.code,
        nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
      },
      now,
    );
    if (nextAttemptAt === null) {
      if (sub.status !== 'expired') await systemStatus(tx, who, 'expired', sub.status, 'expired', now);
    } else if (sub.status === 'active') {
      await systemStatus(tx, who, 'past_due', 'active', 'past_due', now);
    }
    return 'failed';
  });
}

/** Ends a trial whose 14 days are over: it expires unless a paid plan was chosen. */
async function expireTrial(deps: BillingDeps, tenantId: string, now: Date) {
  await deps.database.tenantTx(tenantId, async (tx) => {
    const row = await repo.getSubscription(tx, tenantId, true);
    if (row?.status !== 'trial' || !row.trialEndsAt || row.trialEndsAt > now) return;
    await systemStatus(tx, systemIn(tenantId), 'expired', 'trial', 'expired', now);
  });
}

/**
 * A period that ended: the subscription ends when it was cancelling, else renews with a new invoice — after the
 * scheduled change takes effect (its seats raised to the end users, should more have been added meanwhile). A
 * subscription with a charge still open waits for the next pass (the reconciler settles it first).
 */
async function renew(deps: BillingDeps, tenantId: string, now: Date) {
  const paymentId = await deps.database.tenantTx(tenantId, async (tx) => {
    const row = await repo.getSubscription(tx, tenantId, true);
    if (!row || (row.status !== 'active' && row.status !== 'past_due')) return null;
    if (!row.currentPeriodEnd || row.currentPeriodEnd > now) return null;
    if (await repo.openCharge(tx, tenantId)) return null;
    const who = systemIn(tenantId);
    if (row.cancelAtPeriodEnd) {
      await systemStatus(tx, who, 'cancelled', row.status, 'cancelled', now);
      return null;
    }
    let state: repo.PlanState = stateOf(row);
    if (row.scheduledChange) {
      const { users } = await repo.liveCounts(tx, tenantId);
      state = { ...stateOf(row.scheduledChange), seats: Math.max(row.scheduledChange.seats, users) };
      await repo.updateSubscription(tx, tenantId, { ...state, scheduledChange: null }, now);
      for (const [kind, b, a] of changeEvents(row, state)) await history(tx, who, kind, b, a, now);
      await recordEvent(tx, who, {
        action: 'subscription.update',
        objectType: 'subscription',
        objectId: tenantId,
        before: logged(row),
        after: logged({ ...state, status: row.status }),
      });
    }
    const start = row.currentPeriodEnd;
    const end = periodEnd(start, state.billingCycle);
    const price = priceOf(state.plan, state.billingCycle, state.seats, state.addOns);
    const invoice = await repo.insertPayment(tx, tenantId, {
      periodStart: start,
      periodEnd: end,
      amount: price.total,
      lines: price.lines,
      now,
    });
    await repo.updateSubscription(tx, tenantId, { currentPeriodStart: start, currentPeriodEnd: end }, now);
    await history(
      tx,
      who,
      'renewed',
      { periodEnd: start.toISOString() },
      { periodEnd: end.toISOString(), invoice: invoice.number },
      now,
    );
    return invoice.id;
  });
  if (paymentId) await attemptPayment(deps, tenantId, paymentId);
}

/** Today's usage point of every tenant with a running subscription or trial. */
export async function snapshotUsage(deps: BillingDeps, now: Date = nowOf(deps)) {
  const tenants = await repo.tenantsToSnapshot(deps.database.db);
  for (const tenantId of tenants) {
    await deps.database.tenantTx(tenantId, async (tx) => {
      const row = await repo.getSubscription(tx, tenantId);
      if (!row) return;
      const counts = await repo.liveCounts(tx, tenantId);
      await repo.saveUsage(tx, tenantId, dayOf(now), { ...counts, seats: row.seats }, now);
    });
  }
  return tenants.length;
}

/**
 * One pass of the billing work, as of `now`: trials that ended expire, periods that ended renew (or end when
 * cancelling), failed invoices whose retry is due are charged again, and today's usage is recorded. The
 * scheduler calls it every quarter hour; tests call it with the time they choose.
 */
export async function runBilling(deps: BillingDeps, now: Date = nowOf(deps)) {
  const at = { ...deps, clock: () => now };
  const reconciled = await reconcile(at, now);
  const trials = await repo.dueTrials(deps.database.db, now);
  for (const tenantId of trials) await expireTrial(at, tenantId, now);
  const periods = await repo.duePeriods(deps.database.db, now);
  for (const tenantId of periods) await renew(at, tenantId, now);
  const retries = await repo.dueRetries(deps.database.db, now);
  for (const { tenantId, id } of retries) await attemptPayment(at, tenantId, id);
  const snapshots = await snapshotUsage(at, now);
  return {
    ...reconciled,
    trials: trials.length,
    renewals: periods.length,
    retries: retries.length,
    snapshots,
  };
}

/**
 * The outbox's reconciler (first in every billing pass): charges left pending for {@link RECONCILE_AFTER_MS} — a
 * crash or a lost answer between the provider's charge and its record — are taken to their end with their own
 * idempotency key (the provider answers the charge it made, so nothing is charged twice), and so are renewal
 * invoices never recorded as charged. One that fails (the provider is down) is tried again next pass.
 */
export async function reconcile(deps: BillingDeps, now: Date = nowOf(deps)) {
  const before = new Date(now.getTime() - RECONCILE_AFTER_MS);
  let failed = 0;
  const charges = await repo.stalePendingCharges(deps.database.db, before);
  for (const { tenantId, id } of charges) {
    await driveCharge(deps, tenantId, id).catch(() => {
      failed += 1;
    });
  }
  const invoices = await repo.stalePendingPayments(deps.database.db, before);
  for (const { tenantId, id } of invoices) {
    await attemptPayment(deps, tenantId, id).catch(() => {
      failed += 1;
    });
  }
  return { reconciled: charges.length + invoices.length - failed, reconcileFailures: failed };
}

export const BILLING_TICK_MS = 15 * 60_000;

export function startBilling(deps: BillingDeps, log: FastifyBaseLogger): () => void {
  if (deps.provider.webhookStatus === 'closed') {
    log.warn(
      'payment webhook closed: PAYMENT_WEBHOOK_SECRET is not set, so POST /api/billing/webhook answers 503 and no provider event is accepted (charges are still settled by the requests and the billing pass)',
    );
  } else if (deps.provider.webhookStatus === 'generated') {
    log.info(
      'payment webhook: PAYMENT_WEBHOOK_SECRET is not set, so the sandbox signs its events with a random secret of this process (development only; set PAYMENT_WEBHOOK_SECRET to post deliveries yourself)',
    );
  }
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    deps.database.background(
      runBilling(deps, new Date())
        .then((done) => {
          if (done.reconcileFailures) log.warn(done, 'billing pass: charges left to reconcile');
          else if (done.trials || done.renewals || done.retries || done.reconciled)
            log.info(done, 'billing pass');
        })
        .catch((err: unknown) => log.error({ err }, 'billing pass failed'))
        .finally(() => {
          running = false;
        }),
    );
  }, BILLING_TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

// ─── Webhooks ────────────────────────────────────────────────────────────────────────────────────────────────

const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** Whether a `charge.*` object is for this amount in euros (a charge of another amount pays nothing). */
const isAmountOf = (object: Record<string, unknown>, amount: number) =>
  object.amount === amount &&
  (object.currency === undefined || String(object.currency).toLowerCase() === CURRENCY.toLowerCase());

/**
 * A delivery of the provider: 503 `payment_webhook_closed` when no secret is configured (nothing is accepted),
 * verified over the raw body (400 when the signature is wrong or older than 300 s), handled once per event id (a
 * repeat answers `duplicate: true` and changes nothing; the ids are kept in the database, so a repeat is known
 * on every server and after a restart). `charge.succeeded` for the amount of an open charge settles it (the change
 * takes effect, the invoice is written as paid) and `charge.failed` records its decline; `charge.succeeded` for the
 * amount of an unpaid invoice pays it; `charge.refunded` marks a paid invoice refunded; other events are
 * acknowledged.
 */
export async function handleWebhook(deps: BillingDeps, rawBody: string, signature: string | undefined) {
  const now = nowOf(deps);
  let event: ReturnType<PaymentProvider['verifyWebhook']>;
  try {
    event = deps.provider.verifyWebhook(rawBody, signature, now);
  } catch (error) {
    if (error instanceof WebhookClosedError) {
      throw new AppError(
        'payment_webhook_closed',
        'The payment webhook is closed: PAYMENT_WEBHOOK_SECRET is not set on this server.',
      );
    }
    if (!(error instanceof WebhookSignatureError)) throw error;
    throw new AppError('validation_failed', `The webhook signature is not valid: ${error.message}.`, [
      { path: 'headers.payment-signature', message: 'validation.invalid' },
    ]);
  }
  const { database } = deps;
  const object = event.data.object;
  const metadata = (object.metadata ?? {}) as { paymentId?: unknown };
  const paymentId =
    typeof metadata.paymentId === 'string' && isUuid(metadata.paymentId) ? metadata.paymentId : null;
  const tenantId = paymentId ? await repo.findPaymentTenant(database.db, paymentId) : null;
  const charge = paymentId && !tenantId ? await repo.findChargeOfPayment(database.db, paymentId) : null;
  const chargeId = typeof object.id === 'string' ? object.id : null;
  const isNew = await database.db.transaction(async (tx) => {
    if (!(await repo.markWebhookEvent(tx, deps.provider.name, event.id, event.type))) return false;
    if (!tenantId || !paymentId) return true;
    const payment = await repo.getPayment(tx, tenantId, paymentId, true);
    if (!payment) return true;
    const who = systemIn(tenantId);
    if (
      event.type === 'charge.succeeded' &&
      isAmountOf(object, payment.amount) &&
      payment.status !== 'paid' &&
      payment.status !== 'refunded'
    ) {
      await repo.updatePayment(
        tx,
        tenantId,
        paymentId,
        { status: 'paid', paidAt: now, nextAttemptAt: null, failureCode: null, providerChargeId: chargeId },
        now,
      );
      await history(
        tx,
        who,
        'payment_succeeded',
        null,
        { invoice: payment.number, amount: payment.amount },
        now,
      );
      const sub = await repo.getSubscription(tx, tenantId, true);
      const stillOpen = (await repo.openPayments(tx, tenantId)).length > 0;
      if (sub?.status === 'past_due' && !stillOpen)
        await systemStatus(tx, who, 'resumed', 'past_due', 'active', now);
    }
    if (event.type === 'charge.refunded' && payment.status === 'paid') {
      await repo.updatePayment(tx, tenantId, paymentId, { status: 'refunded' }, now);
      await history(
        tx,
        who,
        'payment_refunded',
        null,
        { invoice: payment.number, amount: payment.amount },
        now,
      );
    }
    return true;
  });
  // An open charge (its invoice is written when it is settled). Should this stop between the event's record and
  // here, the reconciler settles the charge.
  if (isNew && charge && (event.type === 'charge.succeeded' || event.type === 'charge.failed')) {
    await database.tenantTx(charge.tenantId, async (tx) => {
      await load(tx, charge.tenantId, true);
      const open = await repo.getCharge(tx, charge.tenantId, charge.id, true);
      if (open?.status !== 'pending' || !isAmountOf(object, open.amount)) return;
      if (event.type === 'charge.succeeded') {
        await settleCharge(tx, open, chargeId, now);
      } else {
        const code = typeof object.failure_code === 'string' ? object.failure_code : 'card_declined';
        await repo.finishCharge(
          tx,
          charge.tenantId,
          open.id,
          { status: 'failed', providerChargeId: chargeId, failureCode: code },
          now,
        );
      }
    });
  }
  return { received: true as const, duplicate: !isNew };
}
