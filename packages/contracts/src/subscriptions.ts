// CONTRACT READY
import { z } from 'zod';
import { Page, PageQuery, Uuid } from './common';
import { LOCALES } from './constants';
import { endpoint } from './endpoint';
import { EVENT_RETENTION_LIMITS } from './events';
import { FEATURE_FLAGS, type FeatureFlag } from './features';
import { TenantParams } from './tenants';

/**
 * Subscriptions (ARCHITECTURE.md §6, spec §4): a tenant's plan, seats, add-ons, payment method, invoices and
 * usage. Money is in cents of {@link CURRENCY}. A tenant without a subscription (internal and legacy tenants) has
 * no seat limit; its `GET /tenant/:tenant/subscription` answers 404.
 *
 * Seats: one seat per end user (usertype 0). `used.users` is the live count of end users, `used.devices` the live
 * count of devices (shown, not limited). Adding an end user when `used.users >= seats` is refused with 409
 * `seat_limit_reached` (errcode 23); see {@link SeatLimitValues}.
 */

export const CURRENCY = 'EUR' as const;

// ─── Catalogue ───────────────────────────────────────────────────────────────────────────────────────────────

export const PLAN_SKUS = ['trial', 'essentials', 'business', 'enterprise'] as const;
export type PlanSku = (typeof PLAN_SKUS)[number];
/** The plans a tenant can buy (everything but `trial`, which only a new tenant gets). */
export const PAID_PLAN_SKUS = ['essentials', 'business', 'enterprise'] as const;
export type PaidPlanSku = (typeof PAID_PLAN_SKUS)[number];

export const BILLING_CYCLES = ['monthly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** ARCHITECTURE.md §6. `trial` cannot be cancelled (spec §4). */
export const SUBSCRIPTION_STATUSES = ['trial', 'active', 'past_due', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const ADD_ON_SKUS = ['xdr', 'private5g', 'extendedRetention'] as const;
export type AddOnSku = (typeof ADD_ON_SKUS)[number];

/**
 * What a plan includes: feature flags (features.ts), which a tenant on the plan has (`entitledFeatures`) and no
 * tenant on another plan has, and these product areas every plan has (shown, not gated).
 */
export type PlanFeature =
  | FeatureFlag
  | 'secureWebGateway'
  | 'ztna'
  | 'deviceManagement'
  | 'reports'
  | 'partnerSupport'
  | 'prioritySupport';

export interface PlanDefinition {
  sku: PlanSku;
  /** Product name, the same in every language ("Business"); the web may translate `subscriptions.plans.<sku>`. */
  name: string;
  /** Price per seat per month when billed monthly, and per seat per year when billed yearly (cents). 0: trial. */
  pricePerSeat: { monthly: number; yearly: number };
  /** The fewest seats the plan is sold with (the trial's fixed seats). */
  minSeats: number;
  /**
   * The most seats the plan is sold with (400 `validation.seatsAboveMaximum` beyond). The trial is not sold: its
   * seats are the greater of {@link TRIAL_SEATS} and the tenant's end users.
   */
  maxSeats: number;
  /** The trial's length; null for paid plans. */
  trialDays: number | null;
  cancellable: boolean;
  features: readonly PlanFeature[];
  /** Add-ons that can be bought with this plan: only offered ones ({@link AddOnDefinition.offered}). */
  addOns: readonly AddOnSku[];
  /** Add-ons included at no charge. */
  includedAddOns: readonly AddOnSku[];
}

export const TRIAL_DAYS = 14;
export const TRIAL_SEATS = 10;

const ESSENTIAL_FEATURES = [
  'secureWebGateway',
  'deviceManagement',
  'reports',
  'webFilter',
  'geoOutwards',
] as const;
const BUSINESS_FEATURES = [
  ...ESSENTIAL_FEATURES,
  'ztna',
  'ztnaFirewall',
  'gatewayPolicies',
  'analyticsDashboard',
  'securityCompliance',
] as const;
const ENTERPRISE_FEATURES = [...BUSINESS_FEATURES, 'prioritySupport'] as const;

// The add-ons the Business and Enterprise plans sell. XDR and private 5G join when their areas land (issues 26, 28).
const OFFERED: readonly AddOnSku[] = ['extendedRetention'];

export const PLANS: Readonly<Record<PlanSku, PlanDefinition>> = {
  trial: {
    sku: 'trial',
    name: 'Trial',
    pricePerSeat: { monthly: 0, yearly: 0 },
    minSeats: TRIAL_SEATS,
    maxSeats: TRIAL_SEATS,
    trialDays: TRIAL_DAYS,
    cancellable: false,
    features: BUSINESS_FEATURES,
    addOns: [],
    includedAddOns: [],
  },
  essentials: {
    sku: 'essentials',
    name: 'Essentials',
    pricePerSeat: { monthly: 600, yearly: 6_000 },
    minSeats: 5,
    maxSeats: 250,
    trialDays: null,
    cancellable: true,
    features: ESSENTIAL_FEATURES,
    addOns: ['extendedRetention'],
    includedAddOns: [],
  },
  business: {
    sku: 'business',
    name: 'Business',
    pricePerSeat: { monthly: 1_200, yearly: 12_000 },
    minSeats: 10,
    maxSeats: 5_000,
    trialDays: null,
    cancellable: true,
    features: BUSINESS_FEATURES,
    addOns: OFFERED,
    includedAddOns: [],
  },
  enterprise: {
    sku: 'enterprise',
    name: 'Enterprise',
    pricePerSeat: { monthly: 2_000, yearly: 20_000 },
    minSeats: 50,
    maxSeats: 100_000,
    trialDays: null,
    cancellable: true,
    features: ENTERPRISE_FEATURES,
    addOns: OFFERED,
    includedAddOns: ['extendedRetention'],
  },
};

export interface AddOnDefinition {
  sku: AddOnSku;
  name: string;
  /** `seat`: the price is per seat of the subscription; `flat`: per tenant. */
  unit: 'seat' | 'flat';
  /** Per month when billed monthly, per year when billed yearly (cents). */
  price: { monthly: number; yearly: number };
  /**
   * Whether it is sold: an add-on whose area is not built yet (XDR, private 5G) is not offered, the server refuses
   * it (400) and no plan lists it. Its issue turns it on when the area lands.
   */
  offered: boolean;
  /** The feature flags it turns on for the tenant that has it (`entitledFeatures`). */
  flags: readonly FeatureFlag[];
}

export const ADD_ONS: Readonly<Record<AddOnSku, AddOnDefinition>> = {
  xdr: {
    sku: 'xdr',
    name: 'Extended detection and response',
    unit: 'seat',
    price: { monthly: 400, yearly: 4_000 },
    offered: false,
    flags: ['xdr'],
  },
  private5g: {
    sku: 'private5g',
    name: 'Private 5G',
    unit: 'flat',
    price: { monthly: 49_900, yearly: 499_000 },
    offered: false,
    flags: [],
  },
  extendedRetention: {
    sku: 'extendedRetention',
    name: 'Extended log retention (365 days)',
    unit: 'flat',
    price: { monthly: 9_900, yearly: 99_000 },
    offered: true,
    flags: [],
  },
};

/** The add-ons that are sold (see {@link AddOnDefinition.offered}). */
export const OFFERED_ADD_ON_SKUS: readonly AddOnSku[] = ADD_ON_SKUS.filter((sku) => ADD_ONS[sku].offered);

/**
 * The add-ons that can be bought with a plan: offered and listed in its `addOns` (what the server accepts in a
 * change or a start, and what the web's change dialog offers).
 */
export function purchasableAddOns(plan: PlanSku): readonly AddOnSku[] {
  return PLANS[plan].addOns.filter((sku) => ADD_ONS[sku].offered);
}

/**
 * The feature flags a tenant's subscription pays for: its plan's flags, and those of its add-ons (bought or
 * included) that are offered. A tenant without a subscription (internal and legacy tenants) has every flag a paid
 * plan or an offered add-on sells. A flag is on for a tenant when this includes it and its switch is on.
 */
export function entitledFeatures(
  subscription: { plan: PlanSku; addOns: readonly AddOnSku[] } | null,
): ReadonlySet<FeatureFlag> {
  const sold = (feature: string): feature is FeatureFlag =>
    (FEATURE_FLAGS as readonly string[]).includes(feature);
  const plans = subscription ? [PLANS[subscription.plan]] : PAID_PLAN_SKUS.map((sku) => PLANS[sku]);
  const addOns = subscription
    ? [...subscription.addOns, ...PLANS[subscription.plan].includedAddOns]
    : [...ADD_ON_SKUS];
  return new Set([
    ...plans.flatMap((plan) => plan.features.filter(sold)),
    ...addOns.filter((sku) => ADD_ONS[sku].offered).flatMap((sku) => ADD_ONS[sku].flags),
  ]);
}

/**
 * The most days a tenant keeps its admin events ({@link EVENT_RETENTION_LIMITS}): 365 when its plan includes or it
 * bought Extended log retention, 90 otherwise (the trial too), and 3650 without a subscription. The subscription's
 * status does not matter: an ended one keeps what it had until it is bought again.
 */
export function eventRetentionLimit(
  subscription: { plan: PlanSku; addOns: readonly AddOnSku[] } | null,
): number {
  if (!subscription) return EVENT_RETENTION_LIMITS.noSubscription;
  const hasExtended =
    subscription.addOns.includes('extendedRetention') ||
    PLANS[subscription.plan].includedAddOns.includes('extendedRetention');
  return hasExtended ? EVENT_RETENTION_LIMITS.extendedRetention : EVENT_RETENTION_LIMITS.plan;
}

/** One line of a price or an invoice. */
export const PriceLine = z.object({
  /** `plan:<sku>` or `addon:<sku>`. */
  sku: z.string(),
  description: z.string(),
  quantity: z.number().int(),
  /** Cents per unit for the billing cycle. */
  unitAmount: z.number().int(),
  amount: z.number().int(),
});
export type PriceLine = z.infer<typeof PriceLine>;

/**
 * What a plan costs for one billing period (cents): a line for the seats and one per charged add-on (included
 * add-ons cost nothing and have no line). The server bills exactly this; the web shows it before a change.
 */
export function priceOf(
  plan: PlanSku,
  billingCycle: BillingCycle,
  seats: number,
  addOns: readonly AddOnSku[],
): { lines: PriceLine[]; total: number } {
  const p = PLANS[plan];
  const lines: PriceLine[] = [];
  if (p.pricePerSeat[billingCycle] > 0) {
    lines.push({
      sku: `plan:${plan}`,
      description: `${p.name} (${billingCycle})`,
      quantity: seats,
      unitAmount: p.pricePerSeat[billingCycle],
      amount: seats * p.pricePerSeat[billingCycle],
    });
  }
  for (const sku of ADD_ON_SKUS) {
    if (!addOns.includes(sku) || p.includedAddOns.includes(sku)) continue;
    const a = ADD_ONS[sku];
    const quantity = a.unit === 'seat' ? seats : 1;
    lines.push({
      sku: `addon:${sku}`,
      description: a.name,
      quantity,
      unitAmount: a.price[billingCycle],
      amount: quantity * a.price[billingCycle],
    });
  }
  return { lines, total: lines.reduce((sum, line) => sum + line.amount, 0) };
}

/** What a subscription is: plan, cycle, seats and add-ons. */
export interface PlanState {
  plan: PlanSku;
  billingCycle: BillingCycle;
  seats: number;
  addOns: readonly AddOnSku[];
}

/** How a change of a running paid subscription is billed ({@link quoteChange}). */
export interface ChangeQuote {
  /**
   * `now`: the new plan, seats and add-ons cost more and take effect once `amount` is charged (nothing is charged
   * when it rounds to 0); `periodEnd`: nothing is charged now and the change waits for the end of the period;
   * `none`: nothing changes.
   */
  when: 'now' | 'periodEnd' | 'none';
  /** Cents charged now: the sum of `lines` (0 unless `when` is `now`). */
  amount: number;
  /** The charge's invoice lines: the unused time of each current line (negative), the rest of each new one. */
  lines: PriceLine[];
  /** The share of the period still to run, 0 to 1. */
  remaining: number;
  /**
   * What takes effect at the period end (and is billed from the renewal): the whole change when it does not cost
   * more, the new billing cycle when it comes with an upgrade; null when nothing waits.
   */
  atPeriodEnd: PlanState | null;
}

const samePlanState = (a: PlanState, b: PlanState) =>
  a.plan === b.plan &&
  a.billingCycle === b.billingCycle &&
  a.seats === b.seats &&
  a.addOns.length === b.addOns.length &&
  a.addOns.every((addOn) => b.addOns.includes(addOn));

/**
 * How a change of a running paid subscription is billed (docs/subscriptions.md, "Changes and proration"). Both
 * prices are taken in the current billing cycle. When the new plan, seats and add-ons cost more, they take effect
 * now and the rest of the period is charged first: with `f` = milliseconds left of the period ÷ its milliseconds,
 * each line of the current price is credited `−round(amount × f)` and each line of the new price charged
 * `+round(amount × f)` (lines the same on both sides are left out), and the charge is their sum; a new billing
 * cycle then waits for the period end. A change that does not cost more (a downgrade), or only changes the cycle,
 * takes effect at the period end with nothing charged or credited. The server charges exactly this; the web
 * shows it before the change.
 */
export function quoteChange(
  current: PlanState,
  next: PlanState,
  period: { start: string | Date; end: string | Date },
  now: Date,
): ChangeQuote {
  const start = new Date(period.start).getTime();
  const end = new Date(period.end).getTime();
  const remaining = end > start ? Math.min(1, Math.max(0, (end - now.getTime()) / (end - start))) : 0;
  const none: ChangeQuote = { when: 'none', amount: 0, lines: [], remaining, atPeriodEnd: null };
  if (samePlanState(current, next)) return none;
  const cycle = current.billingCycle;
  const before = priceOf(current.plan, cycle, current.seats, current.addOns);
  const after = priceOf(next.plan, cycle, next.seats, next.addOns);
  const immediate = { ...next, billingCycle: cycle };
  if (after.total <= before.total || samePlanState(current, immediate)) {
    return { ...none, when: 'periodEnd', atPeriodEnd: { ...next, addOns: [...next.addOns] } };
  }
  const same = (line: PriceLine, others: PriceLine[]) =>
    others.some((o) => o.sku === line.sku && o.quantity === line.quantity && o.amount === line.amount);
  const lines: PriceLine[] = [];
  for (const line of before.lines) {
    if (same(line, after.lines)) continue;
    const amount = -Math.round(line.amount * remaining);
    lines.push({
      sku: line.sku,
      description: `Unused time: ${line.description} × ${line.quantity}`,
      quantity: 1,
      unitAmount: amount,
      amount,
    });
  }
  for (const line of after.lines) {
    if (same(line, before.lines)) continue;
    const amount = Math.round(line.amount * remaining);
    lines.push({
      sku: line.sku,
      description: `Rest of the period: ${line.description} × ${line.quantity}`,
      quantity: 1,
      unitAmount: amount,
      amount,
    });
  }
  return {
    when: 'now',
    amount: Math.max(
      0,
      lines.reduce((sum, line) => sum + line.amount, 0),
    ),
    lines,
    remaining,
    atPeriodEnd: next.billingCycle === cycle ? null : { ...next, addOns: [...next.addOns] },
  };
}

// ─── Schemas ─────────────────────────────────────────────────────────────────────────────────────────────────

export const PlanSkuSchema = z.enum(PLAN_SKUS, { message: 'validation.choice' });
export const PaidPlanSkuSchema = z.enum(PAID_PLAN_SKUS, { message: 'validation.choice' });
export const BillingCycleSchema = z.enum(BILLING_CYCLES, { message: 'validation.choice' });
export const SubscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES, { message: 'validation.choice' });
export const AddOnSkuSchema = z.enum(ADD_ON_SKUS, { message: 'validation.choice' });

/** The card on file, as the provider describes it. Card numbers never reach this system. */
export const PaymentMethod = z.object({
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** A change that takes effect at the end of the current period (a downgrade, a new billing cycle). */
export const ScheduledChange = z.object({
  plan: PlanSkuSchema,
  billingCycle: BillingCycleSchema,
  seats: z.number().int(),
  addOns: z.array(AddOnSkuSchema),
  /** When it takes effect: the end of the current period. */
  effectiveAt: z.string(),
});
export type ScheduledChange = z.infer<typeof ScheduledChange>;

/** A tenant's current subscription. */
export const Subscription = z.object({
  /** The tenant's name. */
  tenant: z.string(),
  plan: PlanSkuSchema,
  status: SubscriptionStatusSchema,
  billingCycle: BillingCycleSchema,
  /** Seats purchased (the trial's fixed seats). */
  seats: z.number().int(),
  /** Live counts: end users (usertype 0) take seats; devices are shown, not limited. */
  used: z.object({ users: z.number().int(), devices: z.number().int() }),
  /** Trial: when it ends (it expires then unless a paid plan is chosen); null otherwise. */
  trialEndsAt: z.string().nullable(),
  currentPeriodStart: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  /** When it renews and is charged next; null for a trial, one cancelled at period end, or ended. */
  renewsAt: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  cancelledAt: z.string().nullable(),
  addOns: z.array(AddOnSkuSchema),
  paymentMethod: PaymentMethod.nullable(),
  /** What takes effect at the period end; null when nothing waits. */
  scheduledChange: ScheduledChange.nullable(),
  /** What the next period costs (cents of `currency`), the scheduled change included. */
  price: z.object({ currency: z.literal(CURRENCY), total: z.number().int(), lines: z.array(PriceLine) }),
  /** False for a trial (spec §4) and for a subscription that has ended or is already cancelling. */
  cancellable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Subscription = z.infer<typeof Subscription>;

/**
 * A change of plan, cycle, seats or add-ons; what is left out stays as it is now (a scheduled change is replaced).
 * Moving off the trial (or back from `cancelled`/`expired`) starts a new paid period and charges it at once: it
 * needs a payment method, on file or as `paymentToken` (else 400 `body.paymentToken`
 * `validation.paymentMethodRequired`). On a running plan, a change that costs more is charged for the rest of the
 * period before it takes effect, and one that does not waits for the period end ({@link quoteChange}). A
 * declined charge answers 402 `payment_declined` and changes nothing; while another change's charge is open the
 * answer is 409 `conflict` (`validation.paymentInProgress`). 400 details: `body.seats`
 * `validation.seatsBelowMinimum` (`values.min`), `validation.seatsAboveMaximum` (`values.max`, `values.plan`),
 * `validation.seatsBelowUsed` (`values.used`); `body.addOns.<index>` `validation.addOnNotOffered` (`values.item`:
 * an add-on that is not sold yet, {@link AddOnDefinition.offered}) or `validation.addOnNotAvailable` (`values.item`:
 * one the chosen plan does not sell); `body.addOns` with the same keys when the request leaves `addOns` out and the
 * add-ons kept from the subscription are not sold with the chosen plan.
 */
export const SubscriptionUpdateInput = z.object({
  plan: PaidPlanSkuSchema.optional(),
  billingCycle: BillingCycleSchema.optional(),
  seats: z
    .number({ message: 'validation.number' })
    .int({ message: 'validation.integer' })
    .min(1)
    .max(1_000_000)
    .optional(),
  addOns: z.array(AddOnSkuSchema).max(ADD_ON_SKUS.length).optional(),
  /** A provider token of a new card (sandbox: `tok_visa`, …). */
  paymentToken: z.string().trim().min(1, { message: 'validation.required' }).max(200).optional(),
});
export type SubscriptionUpdateInput = z.infer<typeof SubscriptionUpdateInput>;

/** A provider token of the card to use from now on. A declined card answers 402 and changes nothing. */
export const PaymentMethodInput = z.object({
  token: z.string().trim().min(1, { message: 'validation.required' }).max(200),
});
export type PaymentMethodInput = z.infer<typeof PaymentMethodInput>;

export const SUBSCRIPTION_EVENT_KINDS = [
  'trial_started',
  'plan_changed',
  'billing_cycle_changed',
  'seats_changed',
  'addon_added',
  'addon_removed',
  'payment_method_updated',
  'cancelled',
  'resumed',
  'renewed',
  'payment_failed',
  'payment_succeeded',
  'payment_refunded',
  'past_due',
  'expired',
  'change_scheduled',
] as const;
export type SubscriptionEventKind = (typeof SUBSCRIPTION_EVENT_KINDS)[number];

/** One row of a subscription's history (translated as `subscriptionHistory:kinds.<kind>` on the web). */
export const SubscriptionEvent = z.object({
  id: Uuid,
  kind: z.enum(SUBSCRIPTION_EVENT_KINDS),
  /** The changed fields before and after (`{plan: 'trial'}` → `{plan: 'business'}`); null when not a change. */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  /** Who: the administrator's username, or null for the system (renewals, retries, webhooks, expiry). */
  actor: z.string().nullable(),
  createdAt: z.string(),
});
export type SubscriptionEvent = z.infer<typeof SubscriptionEvent>;

/** Newest first unless `order=asc`. */
export const SubscriptionHistoryQuery = PageQuery.omit({ order: true }).extend({
  kind: z.enum(SUBSCRIPTION_EVENT_KINDS, { message: 'validation.choice' }).optional(),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type SubscriptionHistoryQuery = z.infer<typeof SubscriptionHistoryQuery>;

const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'validation.format' })
  .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), { message: 'validation.format' });

/** One day's snapshot: end users, devices and seats purchased at the end of that day (or now, for today). */
export const UsagePoint = z.object({
  day: z.string(),
  users: z.number().int(),
  devices: z.number().int(),
  seats: z.number().int(),
});
export type UsagePoint = z.infer<typeof UsagePoint>;

/** `from`/`to` (days, inclusive, at most 366 days apart) or the last `days` days up to today (default 30). */
export const UsageQuery = z.object({
  from: Day.optional(),
  to: Day.optional(),
  days: z.coerce.number().int().min(1).max(366).optional(),
});
export type UsageQuery = z.infer<typeof UsageQuery>;

/** Points of the days that have a snapshot, oldest first. */
export const UsageSeries = z.object({ from: z.string(), to: z.string(), points: z.array(UsagePoint) });
export type UsageSeries = z.infer<typeof UsageSeries>;

/** One managed tenant in a partner's rollup; plan, status and seats are null when it has no subscription. */
export const PartnerUsageRow = z.object({
  tenant: z.string(),
  displayName: z.string(),
  plan: PlanSkuSchema.nullable(),
  status: SubscriptionStatusSchema.nullable(),
  billingCycle: BillingCycleSchema.nullable(),
  seats: z.number().int().nullable(),
  used: z.object({ users: z.number().int(), devices: z.number().int() }),
  trialEndsAt: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
});
export type PartnerUsageRow = z.infer<typeof PartnerUsageRow>;

/** `q` matches the tenant's name or display name. */
export const PartnerUsageQuery = PageQuery.extend({
  status: SubscriptionStatusSchema.optional(),
  plan: PlanSkuSchema.optional(),
});
export type PartnerUsageQuery = z.infer<typeof PartnerUsageQuery>;

/** A page of the rollup plus totals over every managed tenant (not just the page, and not filtered). */
export const PartnerUsage = Page(PartnerUsageRow).extend({
  totals: z.object({
    tenants: z.number().int(),
    seats: z.number().int(),
    users: z.number().int(),
    devices: z.number().int(),
    byStatus: z.record(z.string(), z.number().int()),
    byPlan: z.record(z.string(), z.number().int()),
  }),
});
export type PartnerUsage = z.infer<typeof PartnerUsage>;

export const PAYMENT_STATUSES = ['paid', 'failed', 'pending', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** An invoice and its payment (translated as `paymentHistory:*` on the web). */
export const Payment = z.object({
  id: Uuid,
  /** `INV-<year>-<sequence>`, unique across tenants. */
  number: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  amount: z.number().int(),
  currency: z.literal(CURRENCY),
  /** `failed`: the last attempt failed (more may follow: `nextAttemptAt`). */
  status: z.enum(PAYMENT_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  /** The provider's decline code of the last failure (`card_declined`, `insufficient_funds`, `processing_error`). */
  failureCode: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  lines: z.array(PriceLine),
});
export type Payment = z.infer<typeof Payment>;

/** Newest first unless `order=asc`. */
export const PaymentListQuery = PageQuery.omit({ order: true }).extend({
  status: z.enum(PAYMENT_STATUSES, { message: 'validation.choice' }).optional(),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type PaymentListQuery = z.infer<typeof PaymentListQuery>;

export const PaymentParams = TenantParams.extend({ id: Uuid });
export const InvoicePdfQuery = z.object({
  lng: z.enum(LOCALES, { message: 'validation.choice' }).optional(),
});

export const PlanCatalogue = z.object({
  currency: z.literal(CURRENCY),
  plans: z.array(
    z.object({
      sku: PlanSkuSchema,
      name: z.string(),
      pricePerSeat: z.object({ monthly: z.number().int(), yearly: z.number().int() }),
      minSeats: z.number().int(),
      maxSeats: z.number().int(),
      trialDays: z.number().int().nullable(),
      cancellable: z.boolean(),
      features: z.array(z.string()),
      addOns: z.array(AddOnSkuSchema),
      includedAddOns: z.array(AddOnSkuSchema),
    }),
  ),
  addOns: z.array(
    z.object({
      sku: AddOnSkuSchema,
      name: z.string(),
      unit: z.enum(['seat', 'flat']),
      price: z.object({ monthly: z.number().int(), yearly: z.number().int() }),
      /** Whether it is sold ({@link AddOnDefinition.offered}); a plan's `addOns` list only offered ones. */
      offered: z.boolean(),
    }),
  ),
});
export type PlanCatalogue = z.infer<typeof PlanCatalogue>;

/** The payment provider's event (sandbox: the shape of a Stripe event); signed in `Payment-Signature`. */
export const PaymentWebhookEvent = z.object({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(200),
  created: z.number().int().optional(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type PaymentWebhookEvent = z.infer<typeof PaymentWebhookEvent>;

/** The header a webhook's signature comes in: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const PAYMENT_SIGNATURE_HEADER = 'payment-signature';

// ─── Errors ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * `details[0].values` of a 409 `seat_limit_reached` (errcode 23), whose `details[0]` is
 * `{path: 'subscription.seats', message: 'error.seatLimitReached', values}`: translate `error.seatLimitReached`
 * with these values to name the plan ("Your Business plan includes 25 seats and all are in use…"); `error.23` is
 * the same message without the names, for a generic toast. Values are strings (ErrorDetail.values).
 */
export interface SeatLimitValues {
  /** Plan name ("Business"). */
  plan: string;
  /** Plan SKU (`business`), for `subscriptions.plans.<sku>`. */
  planSku: string;
  seats: string;
  used: string;
}

/**
 * `details[0]` of a 402 `payment_declined` (errcode 24): `{path: 'body.paymentToken' | 'body.token' |
 * 'subscription', message: 'error.paymentDeclined', values: {plan, planSku, reason}}` where `reason` is the
 * provider's code (`card_declined`, `insufficient_funds`, `processing_error`).
 * A 409 `trial_not_cancellable` (errcode 25): `{path: 'subscription', message: 'error.trialNotCancellable',
 * values: {plan, planSku, trialEndsAt}}`.
 */
export type PaymentDeclinedValues = { plan: string; planSku: string; reason: string };
export type TrialNotCancellableValues = { plan: string; planSku: string; trialEndsAt: string };

// ─── Endpoints ───────────────────────────────────────────────────────────────────────────────────────────────

export const subscriptionEndpoints = {
  listPlans: endpoint({
    method: 'GET',
    path: '/tenant/:tenant/subscription/plans',
    access: 'billing:view',
    summary: 'The plan and add-on catalogue with prices (cents, EUR)',
    tags: ['subscriptions'],
    params: TenantParams,
    response: PlanCatalogue,
  }),
  getSubscription: endpoint({
    method: 'GET',
    path: '/tenant/:tenant/subscription',
    access: 'billing:view',
    summary: "The tenant's subscription with live seat usage (404 when the tenant has none)",
    tags: ['subscriptions'],
    params: TenantParams,
    response: Subscription,
  }),
  updateSubscription: endpoint({
    method: 'PUT',
    path: '/tenant/:tenant/subscription',
    access: 'billing:update',
    summary:
      'Change plan, billing cycle, seats or add-ons: a dearer change is charged for the rest of the period first (402 when declined), a cheaper one waits for the period end',
    tags: ['subscriptions'],
    params: TenantParams,
    body: SubscriptionUpdateInput,
    response: Subscription,
  }),
  setPaymentMethod: endpoint({
    method: 'PUT',
    path: '/tenant/:tenant/subscription/payment-method',
    access: 'billing:update',
    summary: 'Replace the card on file with a provider token; an unpaid invoice is retried with it at once',
    tags: ['subscriptions'],
    params: TenantParams,
    body: PaymentMethodInput,
    response: Subscription,
  }),
  cancelSubscription: endpoint({
    method: 'POST',
    path: '/tenant/:tenant/subscription/cancel',
    access: 'billing:update',
    summary: 'Cancel at the end of the period (a trial cannot be cancelled: 409 trial_not_cancellable)',
    tags: ['subscriptions'],
    params: TenantParams,
    response: Subscription,
  }),
  resumeSubscription: endpoint({
    method: 'POST',
    path: '/tenant/:tenant/subscription/resume',
    access: 'billing:update',
    summary: 'Undo a cancellation before the period ends (409 when nothing is cancelling)',
    tags: ['subscriptions'],
    params: TenantParams,
    response: Subscription,
  }),
  listSubscriptionHistory: endpoint({
    method: 'GET',
    path: '/tenant/:tenant/subscription/history',
    access: 'billing:view',
    summary: "The subscription's history, paged, newest first",
    tags: ['subscriptions'],
    params: TenantParams,
    query: SubscriptionHistoryQuery,
    response: Page(SubscriptionEvent),
  }),
  getSubscriptionUsage: endpoint({
    method: 'GET',
    path: '/tenant/:tenant/subscription/usage',
    access: 'billing:view',
    summary: 'Daily end users, devices and seats over a range',
    tags: ['subscriptions'],
    params: TenantParams,
    query: UsageQuery,
    response: UsageSeries,
  }),
  listPayments: endpoint({
    method: 'GET',
    path: '/tenant/:tenant/payments',
    access: 'billing:view',
    summary: "The tenant's invoices and their payments, paged, newest first",
    tags: ['subscriptions'],
    params: TenantParams,
    query: PaymentListQuery,
    response: Page(Payment),
  }),
  getInvoicePdf: endpoint({
    method: 'GET',
    path: '/tenant/:tenant/payments/:id/invoice',
    access: 'billing:view',
    summary:
      'An invoice as a PDF (application/pdf, an attachment named by its number) in `lng` or the tenant language',
    tags: ['subscriptions'],
    params: PaymentParams,
    query: InvoicePdfQuery,
    response: z.string(),
  }),
  getPartnerUsage: endpoint({
    method: 'GET',
    path: '/partner/:tenant/subscriptions/usage',
    access: 'billing:view',
    summary:
      'Plan, status, seats and use of every tenant a partner manages (every tenant for the platform), paged, with totals; partner and platform admins only',
    tags: ['subscriptions', 'partners'],
    params: TenantParams,
    query: PartnerUsageQuery,
    response: PartnerUsage,
  }),
  paymentWebhook: endpoint({
    method: 'POST',
    path: '/billing/webhook',
    access: 'public',
    summary: `The payment provider's events, signed in the ${PAYMENT_SIGNATURE_HEADER} header (400 when the signature is bad or older than 300 s; 503 payment_webhook_closed when PAYMENT_WEBHOOK_SECRET is not set); a repeated event id is acknowledged and ignored`,
    tags: ['subscriptions'],
    body: PaymentWebhookEvent,
    response: z.object({ received: z.literal(true), duplicate: z.boolean() }),
  }),
};
