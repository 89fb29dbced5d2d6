import { type PartnerUsage, subscriptionEndpoints, type UsageSeries } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { makeSubscription } from '../testing/fixtures';
import { Component as UsageScreen } from './subscription-usage';

const SERIES: UsageSeries = {
  from: '2026-11-24',
  to: '2026-11-26',
  points: [
    { day: '2026-11-24', users: 20, devices: 30, seats: 25 },
    { day: '2026-11-25', users: 27, devices: 31, seats: 25 },
    { day: '2026-11-26', users: 18, devices: 31, seats: 25 },
  ],
};

const ROLLUP: PartnerUsage = {
  items: [
    {
      tenant: 'acme',
      displayName: 'Acme Corporation',
      plan: 'business',
      status: 'active',
      billingCycle: 'monthly',
      seats: 25,
      used: { users: 18, devices: 31 },
      trialEndsAt: null,
      currentPeriodEnd: '2026-12-01T00:00:00.000Z',
    },
    {
      tenant: 'globex',
      displayName: 'Globex Industries',
      plan: 'trial',
      status: 'trial',
      billingCycle: 'monthly',
      seats: 10,
      used: { users: 12, devices: 2 },
      trialEndsAt: '2026-12-05T00:00:00.000Z',
      currentPeriodEnd: null,
    },
  ],
  total: 2,
  totals: {
    tenants: 2,
    seats: 35,
    users: 30,
    devices: 33,
    byStatus: { active: 1, trial: 1 },
    byPlan: { business: 1, trial: 1 },
  },
};

function fakeUsageApi() {
  return fakeApi()
    .on(subscriptionEndpoints.getSubscription, () => makeSubscription())
    .on(subscriptionEndpoints.getSubscriptionUsage, () => SERIES)
    .on(subscriptionEndpoints.getPartnerUsage, () => ROLLUP);
}

const PARTNER = makeSession({
  role: 'partner_admin',
  tenant: 'northwind',
  tenantDisplayName: 'Northwind Security Partners',
  tenantKind: 'partner',
  managedTenants: ['acme', 'globex'],
  managedTenantDisplayNames: { acme: 'Acme Corporation', globex: 'Globex Industries' },
});

const renderUsage = (session = makeSession()) =>
  renderWithProviders(<UsageScreen />, { route: '/tenant/subscription/usage', session });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('subscription usage screen', () => {
  it("shows the working tenant's use against its seats with a text alternative, and no rollup for a customer", async () => {
    const api = fakeUsageApi();
    const { user } = renderUsage();
    expect(screen.getByRole('heading', { level: 1, name: 'Subscription usage' })).toBeInTheDocument();
    const summary =
      'On Nov 26, 2026: 18 end users of 25 seats (72 %), 31 devices. Most end users: 27 on Nov 25, 2026. Over the seat limit on 1 day.';
    // The chart is a chunk of its own: the first load in a busy run takes a while.
    expect(await screen.findByText(summary, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: `Chart: Use over time. ${summary}` })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show the figures as a table' }));
    const table = screen.getByRole('table', { name: 'Use over time' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    const over = within(table).getByRole('rowheader', { name: 'Nov 25, 2026' }).closest('tr')!;
    expect(
      within(over)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['27', '31', '25 (over)']);

    expect(api.calls(subscriptionEndpoints.getSubscriptionUsage)[0]).toMatchObject({
      params: { tenant: 'acme' },
      query: { days: 30 },
    });
    await user.click(screen.getByRole('radio', { name: 'Last 90 days' }));
    await waitFor(() =>
      expect(api.calls(subscriptionEndpoints.getSubscriptionUsage).at(-1)?.query).toEqual({ days: 90 }),
    );
    expect(screen.queryByRole('heading', { name: 'Managed tenants' })).not.toBeInTheDocument();
    expect(api.calls(subscriptionEndpoints.getPartnerUsage)).toHaveLength(0);
    expect(api.unhandled).toEqual([]);
  });

  it('shows a partner the rollup of its tenants with totals and the over-limit flagged', async () => {
    const api = fakeUsageApi();
    renderUsage({ ...PARTNER, tenant: 'northwind' });
    expect(await screen.findByRole('heading', { level: 2, name: 'Managed tenants' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Subscriptions of the managed tenants' });
    const acme = within(table).getByText('Acme Corporation').closest('tr')!;
    expect(acme).toHaveTextContent('Business');
    expect(within(acme).getByText('72 %')).toBeInTheDocument();
    expect(within(acme).queryByText('Over the limit')).not.toBeInTheDocument();
    const globex = within(table).getByText('Globex Industries').closest('tr')!;
    expect(within(globex).getByText('120 %')).toBeInTheDocument();
    expect(within(globex).getByText('Over the limit')).toBeInTheDocument();
    expect(screen.getByText('30 (86 % of the seats)')).toBeInTheDocument();
    expect(screen.getByText('2 tenants')).toBeInTheDocument();
    expect(api.calls(subscriptionEndpoints.getPartnerUsage)[0]).toMatchObject({
      params: { tenant: 'northwind' },
      query: { limit: 25, offset: 0 },
    });
  });
});
