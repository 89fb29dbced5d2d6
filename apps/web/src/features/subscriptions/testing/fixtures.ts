import { priceOf, type Subscription } from '@palisade/contracts';

const DAY = 86_400_000;

/** An ISO time `days` from now. */
export const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** A paid Business subscription of acme (overridable), priced as the contract prices it. */
export function makeSubscription(overrides: Partial<Subscription> = {}): Subscription {
  const plan = overrides.plan ?? 'business';
  const billingCycle = overrides.billingCycle ?? 'monthly';
  const seats = overrides.seats ?? 25;
  const addOns = overrides.addOns ?? ['extendedRetention'];
  const price = priceOf(plan, billingCycle, seats, addOns);
  return {
    tenant: 'acme',
    plan,
    status: 'active',
    billingCycle,
    seats,
    used: { users: 18, devices: 31 },
    trialEndsAt: null,
    currentPeriodStart: '2026-11-01T00:00:00.000Z',
    currentPeriodEnd: '2026-12-01T00:00:00.000Z',
    renewsAt: '2026-12-01T00:00:00.000Z',
    cancelAtPeriodEnd: false,
    cancelledAt: null,
    addOns,
    scheduledChange: null,
    paymentMethod: { brand: 'Visa', last4: '4242', expMonth: 4, expYear: 2030 },
    price: { currency: 'EUR', total: price.total, lines: price.lines },
    cancellable: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A 14-day trial of globex with `daysLeft` days to go. */
export function makeTrial(daysLeft = 9): Subscription {
  return makeSubscription({
    tenant: 'globex',
    plan: 'trial',
    status: 'trial',
    seats: 10,
    used: { users: 4, devices: 2 },
    addOns: [],
    trialEndsAt: inDays(daysLeft),
    currentPeriodStart: null,
    currentPeriodEnd: null,
    renewsAt: null,
    paymentMethod: null,
    cancellable: false,
  });
}
