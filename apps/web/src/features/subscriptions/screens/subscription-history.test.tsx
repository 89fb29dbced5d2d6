import { type SubscriptionEvent, subscriptionEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { Component as HistoryScreen } from './subscription-history';

const event = (n: number, overrides: Partial<SubscriptionEvent>): SubscriptionEvent => ({
  id: `4444444${n}-4444-4444-8444-444444444444`,
  kind: 'plan_changed',
  before: null,
  after: null,
  actor: 'admin@acme.example',
  createdAt: `2026-11-0${n}T10:00:00.000Z`,
  ...overrides,
});

const EVENTS: SubscriptionEvent[] = [
  event(4, { kind: 'cancelled', before: { cancelAtPeriodEnd: false }, after: { cancelAtPeriodEnd: true } }),
  event(3, {
    kind: 'seats_changed',
    before: { seats: 10 },
    after: { seats: 25 },
  }),
  event(2, { kind: 'plan_changed', before: { plan: 'trial' }, after: { plan: 'business' } }),
  event(1, { kind: 'renewed', actor: null, after: { currentPeriodEnd: '2026-12-01T00:00:00.000Z' } }),
];

function renderHistory() {
  return renderWithProviders(<HistoryScreen />, {
    route: '/tenant/acme/subscriptions/history',
    path: '/tenant/:id/subscriptions/history',
    session: makeSession(),
  });
}

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('subscription history screen', () => {
  it('lists every change newest first with its kind translated, before → after, who and when', async () => {
    const api = fakeApi().on(subscriptionEndpoints.listSubscriptionHistory, ({ query }) => {
      const items = query.kind ? EVENTS.filter((item) => item.kind === query.kind) : EVENTS;
      return { items, total: items.length };
    });
    const { user } = renderHistory();
    expect(screen.getByRole('heading', { level: 1, name: 'Subscription history' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Subscription history' });
    const rows = within(table).getAllByRole('row').slice(1);
    // The change's kind heads its cell, over what changed.
    expect(rows.map((row) => within(row).getAllByRole('cell')[1].querySelector('p')?.textContent)).toEqual([
      'Cancelled',
      'Seats changed',
      'Plan changed',
      'Renewed',
    ]);
    expect(within(rows[2]).getByRole('listitem')).toHaveTextContent('Plan: Trial → to Business');
    expect(within(rows[1]).getByRole('listitem')).toHaveTextContent('Seats: 10 → to 25');
    expect(within(rows[0]).getByRole('listitem')).toHaveTextContent('Ends at period end: no → to yes');
    expect(within(rows[0]).getByText('admin@acme.example')).toBeInTheDocument();
    expect(within(rows[3]).getByText('System')).toBeInTheDocument();
    expect(within(rows[3]).getByRole('listitem')).toHaveTextContent('Period ends: Dec 1, 2026');
    expect(screen.getByText('4 changes')).toBeInTheDocument();
    expect(api.calls(subscriptionEndpoints.listSubscriptionHistory)[0]).toMatchObject({
      params: { tenant: 'acme' },
      query: { limit: 25, offset: 0, order: 'desc' },
    });

    await user.click(screen.getByRole('combobox', { name: 'Kind of change' }));
    await user.click(await screen.findByRole('option', { name: 'Seats changed', hidden: true }));
    await waitFor(() =>
      expect(api.calls(subscriptionEndpoints.listSubscriptionHistory).at(-1)?.query).toMatchObject({
        kind: 'seats_changed',
      }),
    );
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(api.unhandled).toEqual([]);
  });

  it('says when there is no change yet', async () => {
    fakeApi().on(subscriptionEndpoints.listSubscriptionHistory, () => ({ items: [], total: 0 }));
    renderHistory();
    expect(await screen.findByText('No subscription changes yet.')).toBeInTheDocument();
  });
});
