import { describe, expect, it } from 'vitest';
import { type PlanState, quoteChange } from './subscriptions';

const period = { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' };
const halfway = new Date('2026-11-16T00:00:00.000Z');
const business: PlanState = { plan: 'business', billingCycle: 'monthly', seats: 10, addOns: [] };

describe('quoteChange (docs/subscriptions.md, changes and proration)', () => {
  it('charges an upgrade the rest of the period: each changed line credited and charged, rounded to the cent', () => {
    const quote = quoteChange(
      business,
      { ...business, plan: 'enterprise', seats: 60, addOns: ['xdr'] },
      period,
      halfway,
    );
    expect(quote).toMatchObject({ when: 'now', remaining: 0.5, atPeriodEnd: null });
    // −½ × 10 × €12 + ½ × 60 × €20 + ½ × 60 × €4.
    expect(quote.lines.map((l) => [l.sku, l.amount])).toEqual([
      ['plan:business', -6_000],
      ['plan:enterprise', 60_000],
      ['addon:xdr', 12_000],
    ]);
    expect(quote.amount).toBe(66_000);
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
