import { CONFIG_FLAGS, sessionEndpoints, tenantFeatureEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { Component as Configurations } from './configurations';

// A flag the server does not turn off while the tenant still uses what it gates (409 `object_in_use`): the screen
// says why, with the count, and the switch stays on.

describe('/configurations when a flag is still in use', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('tells how many policy groups keep policy groups on', async () => {
    const stored = { ...CONFIG_FLAGS, policyGroups: true };
    const api = fakeApi()
      .on(sessionEndpoints.getSession, () => makeSession({ configurations: stored }))
      .on(tenantFeatureEndpoints.getConfigurations, () => ({ configurations: stored, updatedAt: null }))
      .on(tenantFeatureEndpoints.updateConfigurations, () =>
        apiError('object_in_use', {
          message: 'The tenant has 3 policy group(s); delete them before turning policy groups off.',
          details: [
            {
              path: 'body.configurations.policyGroups',
              message: 'configurations.inUse.policyGroups',
              values: { count: '3' },
            },
          ],
        }),
      );
    const { user } = renderWithProviders(<Configurations />, {
      route: '/configurations',
      session: makeSession({ configurations: stored }),
    });
    const policyGroups = await screen.findByRole('switch', { name: /^Policy groups/ });
    expect(policyGroups).toBeChecked();
    await user.click(policyGroups);
    await waitFor(() => expect(api.calls(tenantFeatureEndpoints.updateConfigurations)).toHaveLength(1));
    expect(
      await screen.findByText(
        'This workspace has policy groups (3). Delete them before turning policy groups off.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('The configuration was not changed.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /^Policy groups/ })).toBeChecked();
  });
});
