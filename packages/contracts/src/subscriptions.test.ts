import { describe, expect, it } from 'vitest';
import { EVENT_RETENTION_LIMITS } from './events';
import { FEATURE_FLAGS } from './features';
import {
  ADD_ON_SKUS,
  ADD_ONS,
  entitledFeatures,
  eventRetentionLimit,
  OFFERED_ADD_ON_SKUS,
  PAID_PLAN_SKUS,
  PLAN_SKUS,
  PLANS,
  type PlanState,
  purchasableAddOns,
  quoteChange,
} from './subscriptions';

const period = { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' };
const halfway = new Date('2026-11-16T00:00:00.000Z');
const business: PlanState = { plan: 'business', billingCycle: 'monthly', seats: 10, addOns: [] };

describe('quoteChange (docs/subscriptions.md, changes and proration)', () => {
  it('charges an upgrade the rest of the period: each changed line credited and charged, rounded to the cent', () => {
    const quote = quoteChange(
      business,
      { ...business, seats: 20, addOns: ['extendedRetention'] },
      period,
      halfway,
    );
    expect(quote).toMatchObject({ when: 'now', remaining: 0.5, atPeriodEnd: null });
    // −½ × 10 × €12 + ½ × 20 × €12 + ½ × €99 (a flat add-on: one per tenant).
    expect(quote.lines.map((l) => [l.sku, l.amount])).toEqual([
      ['plan:business', -12_000 / 2],
      ['plan:business', 24_000 / 2],
      ['addon:extendedRetention', 9_900 / 2],
    ]);
    expect(quote.amount).toBe(10_950);
    // An add-on the plan includes costs nothing: Enterprise's retention has no line.
    const enterprise = quoteChange(
      business,
      { ...business, plan: 'enterprise', seats: 60, addOns: ['extendedRetention'] },
      period,
      halfway,
    );
    expect(enterprise.lines.map((l) => [l.sku, l.amount])).toEqual([
      ['plan:business', -6_000],
      ['plan:enterprise', 60_000],
    ]);
    // A third of a cent rounds to the nearest cent, line by line.
    const third = new Date(Date.parse(period.end) - (Date.parse(period.end) - Date.parse(period.start)) / 3);
    expect(quoteChange(business, { ...business, seats: 11 }, period, third).amount).toBe(
      Math.round((11 * 1_200) / 3) - Math.round((10 * 1_200) / 3),
    );
  });

  it('lets a downgrade, or only a new billing cycle, wait for the period end with nothing charged', () => {
    const fewer = quoteChange(business, { ...business, seats: 5 }, period, halfway);
    expect(fewer).toMatchObject({ when: 'periodEnd', amount: 0, lines: [] });
    expect(fewer.atPeriodEnd).toEqual({ ...business, seats: 5 });
    const yearly = quoteChange(business, { ...business, billingCycle: 'yearly' }, period, halfway);
    expect(yearly).toMatchObject({ when: 'periodEnd', amount: 0 });
    expect(yearly.atPeriodEnd).toEqual({ ...business, billingCycle: 'yearly' });
  });

  it('charges the upgrade of a change that also changes the cycle, and keeps the cycle for the period end', () => {
    const quote = quoteChange(business, { ...business, seats: 20, billingCycle: 'yearly' }, period, halfway);
    expect(quote).toMatchObject({ when: 'now', amount: 6_000 });
    expect(quote.atPeriodEnd).toEqual({ ...business, seats: 20, billingCycle: 'yearly' });
  });

  it('charges nothing once the period is over, and nothing for no change', () => {
    const after = quoteChange(business, { ...business, seats: 20 }, period, new Date('2026-12-02T00:00:00Z'));
    expect(after).toMatchObject({ when: 'now', amount: 0, remaining: 0 });
    expect(quoteChange(business, { ...business }, period, halfway)).toMatchObject({
      when: 'none',
      amount: 0,
    });
  });
});

describe('what the plans and add-ons sell', () => {
  it('sells only offered add-ons: no plan lists or includes one that is not offered', () => {
    expect(OFFERED_ADD_ON_SKUS).toEqual(['extendedRetention']);
    expect(ADD_ONS.xdr.offered).toBe(false);
    expect(ADD_ONS.private5g.offered).toBe(false);
    for (const sku of PLAN_SKUS) {
      const plan = PLANS[sku];
      for (const addOn of [...plan.addOns, ...plan.includedAddOns])
        expect(ADD_ONS[addOn].offered, sku).toBe(true);
      expect(purchasableAddOns(sku)).toEqual(plan.addOns);
    }
    expect(purchasableAddOns('business')).toEqual(['extendedRetention']);
    expect(purchasableAddOns('trial')).toEqual([]);
  });

  it("sells every feature flag: in a plan's features or in an add-on's flags", () => {
    const sold = new Set<string>([
      ...PLAN_SKUS.flatMap((sku) => PLANS[sku].features),
      ...ADD_ON_SKUS.flatMap((sku) => ADD_ONS[sku].flags),
    ]);
    expect(FEATURE_FLAGS.filter((flag) => !sold.has(flag))).toEqual([]);
  });

  it('lists no plan feature that nothing is built behind', () => {
    const features = new Set<string>(PLAN_SKUS.flatMap((sku) => PLANS[sku].features));
    for (const gone of ['sso', 'privateDns', 'identitySettings', 'ipamDns'])
      expect(features.has(gone), gone).toBe(false);
  });

  it("entitles a subscription to its plan's flags and its offered add-ons' flags", () => {
    const essentials = entitledFeatures({ plan: 'essentials', addOns: [] });
    expect(essentials.has('webFilter')).toBe(true);
    expect(essentials.has('ztnaFirewall')).toBe(false);
    const business = entitledFeatures({ plan: 'business', addOns: [] });
    expect(business.has('ztnaFirewall')).toBe(true);
    // XDR is not offered: holding it (bought before) entitles to nothing.
    expect(entitledFeatures({ plan: 'business', addOns: ['xdr'] }).has('xdr')).toBe(false);
  });

  it('entitles a tenant without a subscription to every flag but those only a withdrawn add-on sells (xdr)', () => {
    const planFlags = new Set<string>(PAID_PLAN_SKUS.flatMap((sku) => PLANS[sku].features));
    const onlyWithdrawn = FEATURE_FLAGS.filter(
      (flag) =>
        !planFlags.has(flag) &&
        !ADD_ON_SKUS.some((sku) => ADD_ONS[sku].offered && ADD_ONS[sku].flags.includes(flag)),
    );
    expect(onlyWithdrawn).toEqual(['xdr']);
    expect([...entitledFeatures(null)].sort()).toEqual(FEATURE_FLAGS.filter((f) => f !== 'xdr').sort());
  });
});

describe('eventRetentionLimit (the admin event log, EVENT_RETENTION_LIMITS)', () => {
  it('keeps 90 days without Extended log retention, 365 with it (bought or included), 3650 without a subscription', () => {
    expect(EVENT_RETENTION_LIMITS).toEqual({ plan: 90, extendedRetention: 365, noSubscription: 3650 });
    expect(eventRetentionLimit({ plan: 'business', addOns: [] })).toBe(90);
    expect(eventRetentionLimit({ plan: 'trial', addOns: [] })).toBe(90);
    expect(eventRetentionLimit({ plan: 'essentials', addOns: ['extendedRetention'] })).toBe(365);
    expect(eventRetentionLimit({ plan: 'enterprise', addOns: [] })).toBe(365);
    expect(eventRetentionLimit(null)).toBe(3650);
  });
});
