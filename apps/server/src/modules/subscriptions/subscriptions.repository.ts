import type {
  AddOnSku,
  BillingCycle,
  PartnerUsageQuery,
  PaymentListQuery,
  PaymentStatus,
  PlanSku,
  PriceLine,
  SubscriptionEventKind,
  SubscriptionHistoryQuery,
  SubscriptionStatus,
} from '@palisade/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { pgArray } from '../../db/driver';

/** Every SQL statement of the subscriptions module (docs/subscriptions.md). */

type Stamp = string | Date;
const date = (value: Stamp | null): Date | null => (value === null ? null : new Date(value));

export interface SubscriptionRow {
  tenantId: string;
  plan: PlanSku;
  status: SubscriptionStatus;
  billingCycle: BillingCycle;
  seats: number;
  addOns: AddOnSku[];
  trialEndsAt: Date | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  cancelledAt: Date | null;
  provider: string;
  providerCustomerId: string | null;
  /** A change that takes effect at the end of the period (a downgrade, a new billing cycle). */
  scheduledChange: PlanState | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Plan, cycle, seats and add-ons, as a scheduled change or a charge's change keeps them. */
export type PlanState = {
  plan: PlanSku;
  billingCycle: BillingCycle;
  seats: number;
  addOns: AddOnSku[];
};

/** A jsonb value as either driver returns it (parsed, or its text). */
const json = <T>(value: T | string | null): T | null =>
  value === null ? null : typeof value === 'string' ? (JSON.parse(value) as T) : value;

interface RawSubscription {
  tenant_id: string;
  plan: PlanSku;
  status: SubscriptionStatus;
  billing_cycle: BillingCycle;
  seats: number;
  /** text[]: both drivers parse it into an array (db/driver.ts). */
  add_ons: AddOnSku[];
  trial_ends_at: Stamp | null;
  current_period_start: Stamp | null;
  current_period_end: Stamp | null;
  cancel_at_period_end: boolean;
  cancelled_at: Stamp | null;
  provider: string;
  provider_customer_id: string | null;
  scheduled_change: PlanState | string | null;
  created_at: Stamp;
  updated_at: Stamp;
}

function toSubscription(r: RawSubscription): SubscriptionRow {
  return {
    tenantId: r.tenant_id,
    plan: r.plan,
    status: r.status,
    billingCycle: r.billing_cycle,
    seats: Number(r.seats),
    addOns: r.add_ons,
    trialEndsAt: date(r.trial_ends_at),
    currentPeriodStart: date(r.current_period_start),
    currentPeriodEnd: date(r.current_period_end),
    cancelAtPeriodEnd: r.cancel_at_period_end,
    cancelledAt: date(r.cancelled_at),
    provider: r.provider,
    providerCustomerId: r.provider_customer_id,
    scheduledChange: json(r.scheduled_change),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** The tenant's subscription; `lock` holds its row until the transaction ends (a seat check, a charge). */
export async function getSubscription(tx: Tx | Db, tenantId: string, lock = false) {
  const rows = await queryRows<RawSubscription>(
    tx,
    sql`select * from subscriptions where tenant_id = ${tenantId} ${lock ? sql`for update` : sql``}`,
  );
  return rows[0] ? toSubscription(rows[0]) : null;
}

/** Plan, status and trial end of the given tenants' subscriptions (a console page: a handful of ids). */
export async function subscriptionSummaries(db: Db, tenantIds: readonly string[]) {
  if (tenantIds.length === 0) return [];
  return queryRows<{
    tenant_id: string;
    plan: string;
    status: string;
    trial_ends_at: string | Date | null;
    add_ons: AddOnSku[];
  }>(
    db,
    sql`select tenant_id, plan, status, trial_ends_at, add_ons from subscriptions where tenant_id = any(${pgArray(tenantIds, 'uuid')})`,
  );
}

export async function insertSubscription(
  tx: Tx,
  row: Pick<SubscriptionRow, 'tenantId' | 'plan' | 'status' | 'billingCycle' | 'seats' | 'trialEndsAt'> & {
    provider: string;
    now: Date;
  },
) {
  const rows = await queryRows<RawSubscription>(
    tx,
    sql`insert into subscriptions (tenant_id, plan, status, billing_cycle, seats, trial_ends_at, provider,
          created_at, updated_at)
        values (${row.tenantId}, ${row.plan}, ${row.status}, ${row.billingCycle}, ${row.seats},
          ${row.trialEndsAt}, ${row.provider}, ${row.now}, ${row.now})
        on conflict (tenant_id) do nothing
        returning *`,
  );
  return rows[0] ? toSubscription(rows[0]) : null;
}

export type SubscriptionPatch = Partial<
  Pick<
    SubscriptionRow,
    | 'plan'
    | 'status'
    | 'billingCycle'
    | 'seats'
    | 'addOns'
    | 'trialEndsAt'
    | 'currentPeriodStart'
    | 'currentPeriodEnd'
    | 'cancelAtPeriodEnd'
    | 'cancelledAt'
    | 'providerCustomerId'
    | 'scheduledChange'
  >
>;

const COLUMNS: Record<keyof SubscriptionPatch, string> = {
  plan: 'plan',
  status: 'status',
  billingCycle: 'billing_cycle',
  seats: 'seats',
  addOns: 'add_ons',
  trialEndsAt: 'trial_ends_at',
  currentPeriodStart: 'current_period_start',
  currentPeriodEnd: 'current_period_end',
  cancelAtPeriodEnd: 'cancel_at_period_end',
  cancelledAt: 'cancelled_at',
  providerCustomerId: 'provider_customer_id',
  scheduledChange: 'scheduled_change',
};

export async function updateSubscription(tx: Tx, tenantId: string, patch: SubscriptionPatch, now: Date) {
  const sets: SQL[] = [sql`updated_at = ${now}`];
  for (const [key, value] of Object.entries(patch) as [keyof SubscriptionPatch, unknown][]) {
    if (value === undefined) continue;
    const column = sql.identifier(COLUMNS[key]);
    sets.push(
      key === 'addOns'
        ? sql`${column} = ${pgArray(value as string[], 'text')}`
        : key === 'scheduledChange'
          ? sql`${column} = ${value === null ? null : JSON.stringify(value)}::jsonb`
          : sql`${column} = ${value as never}`,
    );
  }
  await tx.execute(sql`update subscriptions set ${sql.join(sets, sql`, `)} where tenant_id = ${tenantId}`);
}

// ─── The card on file ────────────────────────────────────────────────────────────────────────────────────────

export interface PaymentMethodRow {
  provider: string;
  providerMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export async function getPaymentMethod(tx: Tx | Db, tenantId: string): Promise<PaymentMethodRow | null> {
  const [row] = await queryRows<{
    provider: string;
    provider_method_id: string;
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
  }>(tx, sql`select * from payment_methods where tenant_id = ${tenantId}`);
  return row
    ? {
        provider: row.provider,
        providerMethodId: row.provider_method_id,
        brand: row.brand,
        last4: row.last4,
        expMonth: Number(row.exp_month),
        expYear: Number(row.exp_year),
      }
    : null;
}

export async function savePaymentMethod(tx: Tx, tenantId: string, method: PaymentMethodRow, now: Date) {
  await tx.execute(
    sql`insert into payment_methods (tenant_id, provider, provider_method_id, brand, last4, exp_month, exp_year,
          created_at, updated_at)
        values (${tenantId}, ${method.provider}, ${method.providerMethodId}, ${method.brand}, ${method.last4},
          ${method.expMonth}, ${method.expYear}, ${now}, ${now})
        on conflict (tenant_id) do update set provider = excluded.provider,
          provider_method_id = excluded.provider_method_id, brand = excluded.brand, last4 = excluded.last4,
          exp_month = excluded.exp_month, exp_year = excluded.exp_year, updated_at = excluded.updated_at`,
  );
}

// ─── History ─────────────────────────────────────────────────────────────────────────────────────────────────

export interface EventRow {
  id: string;
  kind: SubscriptionEventKind;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  actor: string | null;
  createdAt: Date;
}

export async function insertEvent(
  tx: Tx,
  tenantId: string,
  event: Omit<EventRow, 'id' | 'createdAt'> & { at: Date },
) {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  await tx.execute(
    sql`insert into subscription_events (tenant_id, kind, before, after, actor, created_at)
        values (${tenantId}, ${event.kind}, ${json(event.before)}::jsonb, ${json(event.after)}::jsonb,
          ${event.actor}, ${event.at})`,
  );
}

export async function listEvents(tx: Tx, tenantId: string, query: SubscriptionHistoryQuery) {
  const where = query.kind
    ? sql`tenant_id = ${tenantId} and kind = ${query.kind}`
    : sql`tenant_id = ${tenantId}`;
  const direction = query.order === 'asc' ? sql`asc` : sql`desc`;
  const rows = await queryRows<{
    id: string;
    kind: SubscriptionEventKind;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    actor: string | null;
    created_at: Stamp;
  }>(
    tx,
    sql`select id, kind, before, after, actor, created_at from subscription_events where ${where}
        order by created_at ${direction}, seq ${direction} limit ${query.limit} offset ${query.offset}`,
  );
  const [{ n }] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from subscription_events where ${where}`,
  );
  return {
    rows: rows.map(
      (r): EventRow => ({
        id: r.id,
        kind: r.kind,
        before: r.before,
        after: r.after,
        actor: r.actor,
        createdAt: new Date(r.created_at),
      }),
    ),
    total: Number(n),
  };
}

// ─── Seats and usage ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * The live counts seats are measured by: end users (usertype 0) and devices. Read here over the users and
 * devices tables (owners.ts SHARED_ACCESS) because the users module calls this module's seat check: a call
 * back into its service would be an import cycle.
 */
export async function liveCounts(tx: Tx | Db, tenantId: string) {
  const [row] = await queryRows<{ users: number | string; devices: number | string }>(
    tx,
    sql`select (select count(*) from users where tenant_id = ${tenantId} and usertype = 0) as users,
          (select count(*) from devices where tenant_id = ${tenantId}) as devices`,
  );
  return { users: Number(row.users), devices: Number(row.devices) };
}

export async function saveUsage(
  tx: Tx,
  tenantId: string,
  day: string,
  point: { users: number; devices: number; seats: number },
  now: Date,
) {
  await tx.execute(
    sql`insert into subscription_usage (tenant_id, day, users, devices, seats, created_at, updated_at)
        values (${tenantId}, ${day}::date, ${point.users}, ${point.devices}, ${point.seats}, ${now}, ${now})
        on conflict (tenant_id, day) do update set users = excluded.users, devices = excluded.devices,
          seats = excluded.seats, updated_at = excluded.updated_at`,
  );
}

export async function listUsage(tx: Tx, tenantId: string, from: string, to: string) {
  const rows = await queryRows<{ day: string | Date; users: number; devices: number; seats: number }>(
    tx,
    sql`select to_char(day, 'YYYY-MM-DD') as day, users, devices, seats from subscription_usage
        where tenant_id = ${tenantId} and day between ${from}::date and ${to}::date order by day`,
  );
  return rows.map((r) => ({
    day: String(r.day),
    users: Number(r.users),
    devices: Number(r.devices),
    seats: Number(r.seats),
  }));
}

/** Tenants with a subscription that is not over, for the daily usage snapshot. */
export async function tenantsToSnapshot(db: Db): Promise<string[]> {
  const rows = await queryRows<{ tenant_id: string }>(
    db,
    sql`select tenant_id from subscriptions where status in ('trial', 'active', 'past_due') order by tenant_id`,
  );
  return rows.map((r) => r.tenant_id);
}

// ─── Invoices ────────────────────────────────────────────────────────────────────────────────────────────────

export interface PaymentRow {
  tenantId: string;
  id: string;
  number: string;
  periodStart: Date;
  periodEnd: Date;
  amount: number;
  currency: 'EUR';
  status: PaymentStatus;
  attempts: number;
  firstFailedAt: Date | null;
  nextAttemptAt: Date | null;
  failureCode: string | null;
  lines: PriceLine[];
  providerChargeId: string | null;
  paidAt: Date | null;
  createdAt: Date;
}

interface RawPayment {
  tenant_id: string;
  id: string;
  number: string;
  period_start: Stamp;
  period_end: Stamp;
  amount: number;
  currency: 'EUR';
  status: PaymentStatus;
  attempts: number;
  first_failed_at: Stamp | null;
  next_attempt_at: Stamp | null;
  failure_code: string | null;
  lines: PriceLine[] | string;
  provider_charge_id: string | null;
  paid_at: Stamp | null;
  created_at: Stamp;
}

function toPayment(r: RawPayment): PaymentRow {
  return {
    tenantId: r.tenant_id,
    id: r.id,
    number: r.number,
    periodStart: new Date(r.period_start),
    periodEnd: new Date(r.period_end),
    amount: Number(r.amount),
    currency: r.currency,
    status: r.status,
    attempts: Number(r.attempts),
    firstFailedAt: date(r.first_failed_at),
    nextAttemptAt: date(r.next_attempt_at),
    failureCode: r.failure_code,
    lines: typeof r.lines === 'string' ? (JSON.parse(r.lines) as PriceLine[]) : r.lines,
    providerChargeId: r.provider_charge_id,
    paidAt: date(r.paid_at),
    createdAt: new Date(r.created_at),
  };
}

/** A new pending invoice, numbered `INV-<year>-<six digits>` from one sequence for all tenants. */
export async function insertPayment(
  tx: Tx,
  tenantId: string,
  invoice: { id?: string; periodStart: Date; periodEnd: Date; amount: number; lines: PriceLine[]; now: Date },
) {
  const year = invoice.now.getUTCFullYear();
  const [row] = await queryRows<RawPayment>(
    tx,
    sql`insert into payments (tenant_id, id, number, period_start, period_end, amount, status, lines, created_at,
          updated_at)
        values (${tenantId}, coalesce(${invoice.id ?? null}::uuid, gen_random_uuid()), ${`INV-${year}-`} || lpad(nextval('invoice_number_seq')::text, 6, '0'),
          ${invoice.periodStart}, ${invoice.periodEnd}, ${invoice.amount}, 'pending',
          ${JSON.stringify(invoice.lines)}::jsonb, ${invoice.now}, ${invoice.now})
        returning *`,
  );
  return toPayment(row);
}

export type PaymentPatch = Partial<
  Pick<
    PaymentRow,
    'status' | 'attempts' | 'firstFailedAt' | 'nextAttemptAt' | 'failureCode' | 'providerChargeId' | 'paidAt'
  >
>;

const PAYMENT_COLUMNS: Record<keyof PaymentPatch, string> = {
  status: 'status',
  attempts: 'attempts',
  firstFailedAt: 'first_failed_at',
  nextAttemptAt: 'next_attempt_at',
  failureCode: 'failure_code',
  providerChargeId: 'provider_charge_id',
  paidAt: 'paid_at',
};

export async function updatePayment(tx: Tx, tenantId: string, id: string, patch: PaymentPatch, now: Date) {
  const sets: SQL[] = [sql`updated_at = ${now}`];
  for (const [key, value] of Object.entries(patch) as [keyof PaymentPatch, unknown][]) {
    if (value === undefined) continue;
    sets.push(sql`${sql.identifier(PAYMENT_COLUMNS[key])} = ${value as never}`);
  }
  await tx.execute(
    sql`update payments set ${sql.join(sets, sql`, `)} where tenant_id = ${tenantId} and id = ${id}`,
  );
}

export async function getPayment(tx: Tx, tenantId: string, id: string, lock = false) {
  const rows = await queryRows<RawPayment>(
    tx,
    sql`select * from payments where tenant_id = ${tenantId} and id = ${id} ${lock ? sql`for update` : sql``}`,
  );
  return rows[0] ? toPayment(rows[0]) : null;
}

/** The invoice a payment id names, whichever tenant's (a webhook, before any tenant is known). */
export async function findPaymentTenant(db: Db, id: string): Promise<string | null> {
  const [row] = await queryRows<{ tenant_id: string }>(
    db,
    sql`select tenant_id from payments where id = ${id}`,
  );
  return row?.tenant_id ?? null;
}

/** The tenant's unpaid invoices (failed and still to retry, or pending), oldest first. */
export async function openPayments(tx: Tx, tenantId: string) {
  const rows = await queryRows<RawPayment>(
    tx,
    sql`select * from payments where tenant_id = ${tenantId}
          and (status = 'pending' or (status = 'failed' and next_attempt_at is not null))
        order by created_at, id`,
  );
  return rows.map(toPayment);
}

export async function listPayments(tx: Tx, tenantId: string, query: PaymentListQuery) {
  const where = query.status
    ? sql`tenant_id = ${tenantId} and status = ${query.status}`
    : sql`tenant_id = ${tenantId}`;
  const direction = query.order === 'asc' ? sql`asc` : sql`desc`;
  const rows = await queryRows<RawPayment>(
    tx,
    sql`select * from payments where ${where} order by created_at ${direction}, id ${direction}
        limit ${query.limit} offset ${query.offset}`,
  );
  const [{ n }] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from payments where ${where}`,
  );
  return { rows: rows.map(toPayment), total: Number(n) };
}

// ─── The scheduler's work lists (owner access: every tenant) ────────────────────────────────────────────────

export async function dueTrials(db: Db, now: Date): Promise<string[]> {
  const rows = await queryRows<{ tenant_id: string }>(
    db,
    sql`select tenant_id from subscriptions where status = 'trial' and trial_ends_at <= ${now} order by tenant_id`,
  );
  return rows.map((r) => r.tenant_id);
}

/** Paid subscriptions whose period ended: to renew, or to end when cancelling. */
export async function duePeriods(db: Db, now: Date): Promise<string[]> {
  const rows = await queryRows<{ tenant_id: string }>(
    db,
    sql`select tenant_id from subscriptions where status in ('active', 'past_due')
          and current_period_end <= ${now} order by current_period_end, tenant_id`,
  );
  return rows.map((r) => r.tenant_id);
}

export async function dueRetries(db: Db, now: Date): Promise<Array<{ tenantId: string; id: string }>> {
  const rows = await queryRows<{ tenant_id: string; id: string }>(
    db,
    sql`select tenant_id, id from payments where status = 'failed' and next_attempt_at <= ${now}
        order by next_attempt_at, id`,
  );
  return rows.map((r) => ({ tenantId: r.tenant_id, id: r.id }));
}

// ─── Charges (the outbox of paid starts and changes) ─────────────────────────────────────────────────────────

export type ChargeAction = 'start' | 'change';
export type ChargeStatus = 'pending' | 'settled' | 'failed';

/** Who asked for a charge: the history and the admin log name them when it is settled later. */
export interface Requester {
  id: string | null;
  username: string;
  tenantId?: string;
  tenantName?: string;
  ip: string | null;
}

export interface ChargeRow {
  tenantId: string;
  id: string;
  idempotencyKey: string;
  action: ChargeAction;
  status: ChargeStatus;
  paymentId: string;
  amount: number;
  currency: 'EUR';
  lines: PriceLine[];
  periodStart: Date;
  periodEnd: Date;
  change: { next: PlanState; atPeriodEnd: PlanState | null };
  customerId: string;
  method: PaymentMethodRow;
  requestedBy: Requester | null;
  providerChargeId: string | null;
  failureCode: string | null;
  createdAt: Date;
}

interface RawCharge {
  tenant_id: string;
  id: string;
  idempotency_key: string;
  action: ChargeAction;
  status: ChargeStatus;
  payment_id: string;
  amount: number;
  currency: 'EUR';
  lines: PriceLine[] | string;
  period_start: Stamp;
  period_end: Stamp;
  change: ChargeRow['change'] | string;
  customer_id: string;
  method: PaymentMethodRow | string;
  requested_by: Requester | string | null;
  provider_charge_id: string | null;
  failure_code: string | null;
  created_at: Stamp;
}

function toCharge(r: RawCharge): ChargeRow {
  return {
    tenantId: r.tenant_id,
    id: r.id,
    idempotencyKey: r.idempotency_key,
    action: r.action,
    status: r.status,
    paymentId: r.payment_id,
    amount: Number(r.amount),
    currency: r.currency,
    lines: json(r.lines) ?? [],
    periodStart: new Date(r.period_start),
    periodEnd: new Date(r.period_end),
    change: json(r.change) as ChargeRow['change'],
    customerId: r.customer_id,
    method: json(r.method) as PaymentMethodRow,
    requestedBy: json(r.requested_by),
    providerChargeId: r.provider_charge_id,
    failureCode: r.failure_code,
    createdAt: new Date(r.created_at),
  };
}

/** The tenant's open (pending) charge, if any: there is at most one (a partial unique index). */
export async function openCharge(tx: Tx, tenantId: string) {
  const rows = await queryRows<RawCharge>(
    tx,
    sql`select * from subscription_charges where tenant_id = ${tenantId} and status = 'pending'`,
  );
  return rows[0] ? toCharge(rows[0]) : null;
}

export async function getCharge(tx: Tx, tenantId: string, id: string, lock = false) {
  const rows = await queryRows<RawCharge>(
    tx,
    sql`select * from subscription_charges where tenant_id = ${tenantId} and id = ${id}
        ${lock ? sql`for update` : sql``}`,
  );
  return rows[0] ? toCharge(rows[0]) : null;
}

/** How many charges of an action the tenant has had for a period (the next key's attempt number). */
export async function countCharges(tx: Tx, tenantId: string, action: ChargeAction, periodStart: Date) {
  const [{ n }] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from subscription_charges
        where tenant_id = ${tenantId} and action = ${action} and period_start = ${periodStart}`,
  );
  return Number(n);
}

export async function insertCharge(
  tx: Tx,
  charge: Omit<ChargeRow, 'id' | 'status' | 'providerChargeId' | 'failureCode' | 'createdAt'> & { now: Date },
) {
  const [row] = await queryRows<RawCharge>(
    tx,
    sql`insert into subscription_charges (tenant_id, idempotency_key, action, status, payment_id, amount, currency,
          lines, period_start, period_end, change, customer_id, method, requested_by, created_at, updated_at)
        values (${charge.tenantId}, ${charge.idempotencyKey}, ${charge.action}, 'pending', ${charge.paymentId},
          ${charge.amount}, ${charge.currency}, ${JSON.stringify(charge.lines)}::jsonb, ${charge.periodStart},
          ${charge.periodEnd}, ${JSON.stringify(charge.change)}::jsonb, ${charge.customerId},
          ${JSON.stringify(charge.method)}::jsonb,
          ${charge.requestedBy ? JSON.stringify(charge.requestedBy) : null}::jsonb, ${charge.now}, ${charge.now})
        returning *`,
  );
  return toCharge(row);
}

export async function finishCharge(
  tx: Tx,
  tenantId: string,
  id: string,
  outcome: { status: 'settled' | 'failed'; providerChargeId: string | null; failureCode: string | null },
  now: Date,
) {
  await tx.execute(
    sql`update subscription_charges set status = ${outcome.status}, provider_charge_id = ${outcome.providerChargeId},
          failure_code = ${outcome.failureCode}, updated_at = ${now}
        where tenant_id = ${tenantId} and id = ${id}`,
  );
}

/** The charge that pays an invoice id, whichever tenant's (a webhook, before any tenant is known). */
export async function findChargeOfPayment(db: Db, paymentId: string) {
  const [row] = await queryRows<{ tenant_id: string; id: string }>(
    db,
    sql`select tenant_id, id from subscription_charges where payment_id = ${paymentId}`,
  );
  return row ? { tenantId: row.tenant_id, id: row.id } : null;
}

/** Charges still pending since before `before` (a crash between the charge and its record), for the reconciler. */
export async function stalePendingCharges(db: Db, before: Date) {
  const rows = await queryRows<{ tenant_id: string; id: string }>(
    db,
    sql`select tenant_id, id from subscription_charges where status = 'pending' and created_at <= ${before}
        order by created_at, id`,
  );
  return rows.map((r) => ({ tenantId: r.tenant_id, id: r.id }));
}

/** Renewal invoices never charged or recorded since before `before` (a crash after the renewal was written). */
export async function stalePendingPayments(db: Db, before: Date) {
  const rows = await queryRows<{ tenant_id: string; id: string }>(
    db,
    sql`select tenant_id, id from payments where status = 'pending' and created_at <= ${before}
        order by created_at, id`,
  );
  return rows.map((r) => ({ tenantId: r.tenant_id, id: r.id }));
}

// ─── Webhooks ────────────────────────────────────────────────────────────────────────────────────────────────

/** Records a provider event as handled; false when it was handled before (a repeated delivery). */
export async function markWebhookEvent(tx: Tx | Db, provider: string, eventId: string, type: string) {
  const rows = await queryRows<{ event_id: string }>(
    tx,
    sql`insert into payment_webhook_events (provider, event_id, type) values (${provider}, ${eventId}, ${type})
        on conflict do nothing returning event_id`,
  );
  return rows.length > 0;
}

// ─── Tenants (read) ──────────────────────────────────────────────────────────────────────────────────────────

/** The tenant's name and display name, and its first owner's language (the invoice's default language). */
export async function tenantHeader(tx: Tx, tenantId: string) {
  const [row] = await queryRows<{ name: string; display_name: string; language: string | null }>(
    tx,
    sql`select t.name, t.display_name,
          (select u.language from users u where u.tenant_id = t.id and u.usertype = 1 and u.role = 'owner'
           order by u.created_at limit 1) as language
        from tenants t where t.id = ${tenantId}`,
  );
  return row ? { name: row.name, displayName: row.display_name, language: row.language } : null;
}

export type UsageScope = { partnerId: string } | { all: true };

const scopeOf = (scope: UsageScope): SQL =>
  'all' in scope ? sql`t.kind in ('partner', 'customer')` : sql`t.parent_id = ${scope.partnerId}`;

/**
 * The rollup of a partner's tenants: a page of them with their subscription and live counts (counted for the
 * page's rows only), and totals over all of them.
 */
export async function partnerUsage(db: Db, scope: UsageScope, query: PartnerUsageQuery) {
  const filters: SQL[] = [scopeOf(scope)];
  if (query.q) {
    const like = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(sql`(t.name like ${like} or lower(t.display_name) like ${like})`);
  }
  if (query.status) filters.push(sql`s.status = ${query.status}`);
  if (query.plan) filters.push(sql`s.plan = ${query.plan}`);
  const where = sql.join(filters, sql` and `);
  const direction = query.order === 'desc' ? sql`desc` : sql`asc`;
  const rows = await queryRows<{
    name: string;
    display_name: string;
    plan: PlanSku | null;
    status: SubscriptionStatus | null;
    billing_cycle: BillingCycle | null;
    seats: number | null;
    trial_ends_at: Stamp | null;
    current_period_end: Stamp | null;
    users: number | string;
    devices: number | string;
  }>(
    db,
    sql`with page as (
          select t.id, t.name, t.display_name, s.plan, s.status, s.billing_cycle, s.seats, s.trial_ends_at,
            s.current_period_end
          from tenants t left join subscriptions s on s.tenant_id = t.id
          where ${where} order by t.name ${direction} limit ${query.limit} offset ${query.offset}
        )
        select p.*,
          (select count(*) from users u where u.tenant_id = p.id and u.usertype = 0) as users,
          (select count(*) from devices d where d.tenant_id = p.id) as devices
        from page p order by p.name ${direction}`,
  );
  const [{ n }] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from tenants t left join subscriptions s on s.tenant_id = t.id where ${where}`,
  );
  const scoped = scopeOf(scope);
  const [totals] = await queryRows<{
    tenants: number | string;
    seats: number | string;
    users: number | string;
    devices: number | string;
  }>(
    db,
    sql`select count(*) as tenants, coalesce(sum(s.seats), 0) as seats,
          (select count(*) from users u join tenants t on t.id = u.tenant_id where ${scoped} and u.usertype = 0)
            as users,
          (select count(*) from devices d join tenants t on t.id = d.tenant_id where ${scoped}) as devices
        from tenants t left join subscriptions s on s.tenant_id = t.id where ${scoped}`,
  );
  const groups = await queryRows<{ status: string | null; plan: string | null; n: number | string }>(
    db,
    sql`select s.status, s.plan, count(*) as n from tenants t left join subscriptions s on s.tenant_id = t.id
        where ${scoped} group by s.status, s.plan`,
  );
  return {
    rows: rows.map((r) => ({
      tenant: r.name,
      displayName: r.display_name,
      plan: r.plan,
      status: r.status,
      billingCycle: r.billing_cycle,
      seats: r.seats === null ? null : Number(r.seats),
      used: { users: Number(r.users), devices: Number(r.devices) },
      trialEndsAt: date(r.trial_ends_at)?.toISOString() ?? null,
      currentPeriodEnd: date(r.current_period_end)?.toISOString() ?? null,
    })),
    total: Number(n),
    totals: {
      tenants: Number(totals.tenants),
      seats: Number(totals.seats),
      users: Number(totals.users),
      devices: Number(totals.devices),
    },
    groups: groups.map((g) => ({ status: g.status ?? 'none', plan: g.plan ?? 'none', n: Number(g.n) })),
  };
}
