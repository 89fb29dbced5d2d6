import { userEndpoints } from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { Component as UserAdd } from './user-add';

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('add user screen', () => {
  it("says the server's seat limit in words that name the plan, and keeps the form", async () => {
    const api = fakeApi()
      .on(userEndpoints.listGroupOptions, () => [])
      .on(userEndpoints.createUser, () =>
        apiError('seat_limit_reached', {
          message: 'All seats are in use.',
          details: [
            {
              path: 'subscription.seats',
              message: 'error.seatLimitReached',
              values: { plan: 'Business', planSku: 'business', seats: '25', used: '25' },
            },
          ],
        }),
      );
    const { user, router } = renderWithProviders(<UserAdd />, {
      route: '/users/add',
      session: makeSession(),
    });
    await user.type(await screen.findByRole('textbox', { name: /Username/ }), 'new@acme.example');
    await user.type(screen.getByRole('textbox', { name: /First name/ }), 'Nia');
    await user.type(screen.getByRole('textbox', { name: /Last name/ }), 'New');
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    expect(
      await screen.findByText(
        'Your Business plan includes 25 seats and all are in use (25 end users). Add seats to your subscription or remove end users first.',
      ),
    ).toBeInTheDocument();
    expect(api.calls(userEndpoints.createUser)).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/users/add');
    expect(screen.getByRole('textbox', { name: /Username/ })).toHaveValue('new@acme.example');
  });
});
