import { type Subscription, subscriptionEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeApi, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { makeSubscription, makeTrial } from '../testing/fixtures';
import { Component as SubscriptionScreen } from './subscription';

const INVOICE = {
  id: '33333333-3333-4333-8333-333333333333',
  number: 'INV-2026-000042',
  periodStart: '2026-10-01T00:00:00.000Z',
  periodEnd: '2026-11-01T00:00:00.000Z',
  amount: 123_456,
  currency: 'EUR' as const,
  status: 'failed' as const,
  attempts: 2,
  nextAttemptAt: '2026-11-05T09:00:00.000Z',
  failureCode: 'card_declined',
  createdAt: '2026-11-01T00:00:00.000Z',
  paidAt: null,
  lines: [],
};

/** A fake API that keeps one subscription and answers its changes as the server does. */
function fakeSubscriptionApi(start: Subscription): FakeApi & { current: () => Subscription } {
  let subscription = start;
  const api = fakeApi()
    .on(subscriptionEndpoints.getSubscription, () => subscription)
    .on(subscriptionEndpoints.listPayments, () => ({ items: [INVOICE], total: 1 }))
    .on(subscriptionEndpoints.cancelSubscription, () => {
      if (subscription.status === 'trial')
        return apiError('trial_not_cancellable', {
          details: [
            {
              path: 'subscription',
              message: 'error.trialNotCancellable',
              values: { plan: 'Trial', planSku: 'trial', trialEndsAt: subscription.trialEndsAt ?? '' },
            },
          ],
        });
      subscription = { ...subscription, cancelAtPeriodEnd: true, cancellable: false, renewsAt: null };
      return subscription;
    })
    .on(subscriptionEndpoints.resumeSubscription, () => {
      subscription = {
        ...subscription,
        cancelAtPeriodEnd: false,
        cancellable: true,
        renewsAt: subscription.currentPeriodEnd,
      };
      return subscription;
    });
  return Object.assign(api, { current: () => subscription });
}

const changes = (api: FakeApi) => api.requests.filter((request) => request.method !== 'GET');

function renderScreen(tenant = 'acme', session = makeSession({ tenant })) {
  return renderWithProviders(<SubscriptionScreen />, {
    route: `/tenant/${tenant}/subscriptions/`,
    path: '/tenant/:id/subscriptions/',
    session,
  });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('subscription screen', () => {
  it('shows the plan, its renewal, the seats used as a labelled bar, the card and the invoices', async () => {
    const api = fakeSubscriptionApi(makeSubscription());
    renderScreen();
    expect(await screen.findByRole('heading', { level: 2, name: 'Business plan' })).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Monthly')).toBeInTheDocument();
    expect(screen.getByText('Dec 1, 2026')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: '18 of 25 seats used (72 %)' })).toBeInTheDocument();
    expect(screen.getByText('31 devices (devices do not take seats)')).toBeInTheDocument();
    expect(screen.getByText('Extended log retention (365 days)')).toBeInTheDocument();
    expect(screen.getByText('Visa •••• 4242, expires 04/2030')).toBeInTheDocument();
    // 25 seats × €12 + €99 for Extended log retention (one per tenant).
    expect(screen.getByText('€399.00 per month')).toBeInTheDocument();

    const invoices = await screen.findByRole('table', { name: 'Invoices' });
    const row = within(invoices).getByText('INV-2026-000042').closest('tr')!;
    expect(within(row).getByText('€1,234.56')).toBeInTheDocument();
    expect(within(row).getByText('Failed')).toBeInTheDocument();
    expect(within(row).getByText('2')).toBeInTheDocument();
    expect(
      within(row).getByRole('button', { name: 'Download invoice INV-2026-000042 as PDF' }),
    ).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('offers no cancel for a trial and says why, with its days left', async () => {
    const api = fakeSubscriptionApi(makeTrial(9));
    renderScreen('globex');
    expect(await screen.findByRole('heading', { level: 2, name: 'Trial plan' })).toBeInTheDocument();
    expect(screen.getByText(/^9 days left: the trial ends on /)).toBeInTheDocument();
    const cancel = screen.getByRole('button', { name: 'Cancel subscription' });
    expect(cancel).toBeDisabled();
    expect(cancel).toHaveAccessibleDescription(
      /^A trial cannot be cancelled: it ends by itself on .+ and nothing is charged\./,
    );
    expect(screen.getByRole('button', { name: 'Choose a paid plan' })).toBeInTheDocument();
    expect(changes(api)).toHaveLength(0);
  });

  it('cancels a paid plan at period end after a confirmation, shows the outcome, and resumes it', async () => {
    const api = fakeSubscriptionApi(makeSubscription());
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription?' });
    expect(within(dialog).getByText(/stays active until Dec 1, 2026/)).toBeInTheDocument();
    expect(changes(api)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel at period end' }));

    expect(
      await screen.findByText('The subscription is cancelled. It ends on Dec 1, 2026.'),
    ).toBeInTheDocument();
    expect(changes(api)).toHaveLength(1);
    expect(changes(api)[0]).toMatchObject({
      endpoint: subscriptionEndpoints.cancelSubscription,
      params: { tenant: 'acme' },
    });
    expect(
      await screen.findByText(
        'The subscription ends on Dec 1, 2026 and is not renewed. Until then everything keeps working.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Does not renew')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Resume subscription' }));
    expect(
      await screen.findByText('The subscription continues and renews on Dec 1, 2026.'),
    ).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Cancel subscription' })).toBeEnabled();
    expect(changes(api).map((call) => ('endpoint' in call ? call.endpoint : null))).toEqual([
      subscriptionEndpoints.cancelSubscription,
      subscriptionEndpoints.resumeSubscription,
    ]);
  });

  it("says the server's refusal of a trial's cancel in the console's words", async () => {
    // The screen still shows the subscription as paid, but the server has it as a trial.
    const api = fakeSubscriptionApi(makeSubscription());
    api.on(subscriptionEndpoints.cancelSubscription, () =>
      apiError('trial_not_cancellable', {
        details: [
          {
            path: 'subscription',
            message: 'error.trialNotCancellable',
            values: { plan: 'Trial', planSku: 'trial', trialEndsAt: '2026-12-10T00:00:00.000Z' },
          },
        ],
      }),
    );
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel at period end' }));
    expect(
      await screen.findByText(
        'A trial cannot be cancelled: it ends by itself on Dec 10, 2026 and nothing is charged. Choose a paid plan to keep using Palisade.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('The subscription was not cancelled')).toBeInTheDocument();
  });

  it('changes seats and add-ons with the price shown, sending only what changed', async () => {
    const api = fakeSubscriptionApi(makeSubscription());
    api.on(subscriptionEndpoints.updateSubscription, ({ body }) =>
      makeSubscription({ ...body, plan: 'business' }),
    );
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Change plan, seats or add-ons' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change subscription' });
    expect(within(dialog).getByText('Price of the next period: €399.00 per month')).toBeInTheDocument();
    const seats = within(dialog).getByRole('textbox', { name: /Seats/ });
    await user.clear(seats);
    await user.type(seats, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    // Fewer seats than users is refused before anything is sent.
    expect(
      await within(dialog).findByText(
        '18 users take seats now: keep at least that many, or remove users first.',
      ),
    ).toBeInTheDocument();
    expect(changes(api)).toHaveLength(0);

    await user.clear(seats);
    await user.type(seats, '30');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Extended log retention (365 days)' }));
    // 30 × €12 without the add-on.
    expect(within(dialog).getByText('Price of the next period: €360.00 per month')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The subscription was changed.')).toBeInTheDocument();
    expect(api.calls(subscriptionEndpoints.updateSubscription)[0].sentBody).toEqual({
      seats: 30,
      addOns: [],
    });
  });

  it('offers only the add-ons that are sold with the chosen plan, an included one checked', async () => {
    // A subscription that still holds XDR, bought before it was withdrawn.
    const api = fakeSubscriptionApi(makeSubscription({ addOns: ['xdr', 'extendedRetention'] }));
    api.on(subscriptionEndpoints.updateSubscription, ({ body }) =>
      makeSubscription({ ...body, plan: body.plan ?? 'business' }),
    );
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Change plan, seats or add-ons' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change subscription' });
    const addOns = () =>
      within(dialog)
        .getAllByRole('checkbox')
        .map((box) => box.getAttribute('value'));
    expect(addOns()).toEqual(['extendedRetention']);
    expect(within(dialog).getByRole('checkbox', { name: 'Extended log retention (365 days)' })).toBeChecked();
    expect(within(dialog).queryByRole('checkbox', { name: /detection and response|Private 5G/ })).toBeNull();

    await user.click(within(dialog).getByRole('radio', { name: 'Enterprise' }));
    const included = within(dialog).getByRole('checkbox', { name: 'Extended log retention (365 days)' });
    expect(included).toBeChecked();
    expect(included).toBeDisabled();
    expect(included).toHaveAccessibleDescription('Included in this plan');
    expect(addOns()).toEqual(['extendedRetention']);

    await user.click(within(dialog).getByRole('radio', { name: 'Essentials' }));
    expect(addOns()).toEqual(['extendedRetention']);
    await user.click(within(dialog).getByRole('radio', { name: 'Business' }));
    const seats = within(dialog).getByRole('textbox', { name: /Seats/ });
    await user.clear(seats);
    await user.type(seats, '30');
    await user.click(within(dialog).getByRole('button', { name: /^Pay|Save changes/ }));
    expect(await screen.findByText('The subscription was changed.')).toBeInTheDocument();
    // The withdrawn add-on is not sent back.
    expect(api.calls(subscriptionEndpoints.updateSubscription)[0].sentBody).toEqual({
      seats: 30,
      addOns: ['extendedRetention'],
    });
  });

  it("says the server's refusal of an add-on on the add-ons", async () => {
    const api = fakeSubscriptionApi(makeSubscription({ addOns: [] }));
    api.on(subscriptionEndpoints.updateSubscription, () =>
      apiError('validation_failed', {
        details: [{ path: 'body.addOns.0', message: 'validation.addOnNotOffered', values: { item: 'xdr' } }],
      }),
    );
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Change plan, seats or add-ons' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change subscription' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Extended log retention (365 days)' }));
    await user.click(within(dialog).getByRole('button', { name: /^Pay|Save changes/ }));
    expect(await within(dialog).findByText('This add-on is not sold yet: xdr.')).toBeInTheDocument();
  });

  it('shows what an upgrade charges now for the rest of the period, that a downgrade waits, and the seat limits', async () => {
    // Half of the period from Nov 1 to Dec 1, 2026 is left (only the clock is faked: the dialog quotes at opening).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-16T00:00:00.000Z'));
    try {
      const api = fakeSubscriptionApi(makeSubscription());
      api.on(subscriptionEndpoints.updateSubscription, ({ body }) =>
        makeSubscription({ ...body, plan: 'business' }),
      );
      const { user } = renderScreen();
      await user.click(await screen.findByRole('button', { name: 'Change plan, seats or add-ons' }));
      const dialog = await screen.findByRole('dialog', { name: 'Change subscription' });
      const seats = within(dialog).getByRole('textbox', { name: /Seats/ });
      expect(seats).toHaveAccessibleDescription(/the Business plan takes 10 to 5,000 seats/);

      await user.clear(seats);
      await user.type(seats, '6000');
      await user.click(within(dialog).getByRole('button', { name: /Save changes|^Pay/ }));
      expect(
        await within(dialog).findByText('The Business plan is sold with at most 5,000 seats.'),
      ).toBeInTheDocument();
      expect(changes(api)).toHaveLength(0);

      // 25 → 30 seats: ½ × (30 − 25) × €12 = €30.00, charged before the seats are added (the flat add-on stays).
      await user.clear(seats);
      await user.type(seats, '30');
      expect(within(dialog).getByText('Charged now: €30.00')).toBeInTheDocument();
      expect(
        within(dialog).getByText(
          /takes effect once the difference for the rest of this period \(until Dec 1, 2026\)/,
        ),
      ).toBeInTheDocument();
      expect(within(dialog).getByText('Price of the next period: €459.00 per month')).toBeInTheDocument();

      // Fewer seats cost less: nothing now, from the period end.
      await user.clear(seats);
      await user.type(seats, '20');
      expect(within(dialog).queryByText(/^Charged now/)).not.toBeInTheDocument();
      expect(
        within(dialog).getByText(/^Nothing is charged now: the change takes effect on Dec 1, 2026/),
      ).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Save changes' })).toBeInTheDocument();

      await user.clear(seats);
      await user.type(seats, '30');
      await user.click(within(dialog).getByRole('button', { name: 'Pay €30.00 and save' }));
      expect(await screen.findByText('The subscription was changed.')).toBeInTheDocument();
      expect(api.calls(subscriptionEndpoints.updateSubscription)[0].sentBody).toEqual({ seats: 30 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('says a change that waits for the period end on the screen', async () => {
    fakeSubscriptionApi(
      makeSubscription({
        scheduledChange: {
          plan: 'essentials',
          billingCycle: 'yearly',
          seats: 20,
          addOns: [],
          effectiveAt: '2026-12-01T00:00:00.000Z',
        },
      }),
    );
    renderScreen();
    expect(await screen.findByText('Change scheduled')).toBeInTheDocument();
    expect(
      screen.getByText(
        'On Dec 1, 2026 the subscription changes to the Essentials plan with 20 seats, billed yearly, add-ons: none. Nothing is charged for it before then.',
      ),
    ).toBeInTheDocument();
  });

  it('asks a trial for a payment token to subscribe, and says a declined card on the field', async () => {
    const api = fakeSubscriptionApi(makeTrial());
    api.on(subscriptionEndpoints.updateSubscription, () =>
      apiError('payment_declined', {
        details: [
          {
            path: 'body.paymentToken',
            message: 'error.paymentDeclined',
            values: { plan: 'Business', planSku: 'business', reason: 'insufficient_funds' },
          },
        ],
      }),
    );
    const { user } = renderScreen('globex');
    await user.click(await screen.findByRole('button', { name: 'Choose a paid plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change subscription' });
    const token = within(dialog).getByRole('textbox', { name: /Payment token/ });
    expect(token).toHaveAccessibleDescription(/Card details are never typed into this console/);
    await user.click(within(dialog).getByRole('button', { name: /^Subscribe for/ }));
    expect(await within(dialog).findByText('A paid plan needs a payment method.')).toBeInTheDocument();
    await user.type(token, 'tok_chargeDeclinedInsufficientFunds');
    await user.click(within(dialog).getByRole('button', { name: /^Subscribe for/ }));
    expect(
      await within(dialog).findByText('The card has insufficient funds. Use another card.'),
    ).toBeInTheDocument();
    expect(api.calls(subscriptionEndpoints.updateSubscription)[0].sentBody).toEqual({
      plan: 'business',
      paymentToken: 'tok_chargeDeclinedInsufficientFunds',
    });
  });

  it('shows a tenant without a subscription as not billed, and a role without billing nothing', async () => {
    const api = fakeApi().on(subscriptionEndpoints.getSubscription, () => apiError('not_found'));
    const first = renderScreen();
    expect(await screen.findByText('This tenant has no subscription: it is not billed.')).toBeInTheDocument();
    first.unmount();
    expect(api.calls(subscriptionEndpoints.getSubscription)).toHaveLength(1);

    renderScreen('acme', makeSession({ role: 'helpdesk' }));
    expect(screen.getByText('Your role does not include the subscription and billing.')).toBeInTheDocument();
    await waitFor(() => expect(api.calls(subscriptionEndpoints.getSubscription)).toHaveLength(1));
  });
});
