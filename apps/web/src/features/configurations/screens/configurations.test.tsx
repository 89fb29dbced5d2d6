import { CONFIG_FLAGS, sessionEndpoints, tenantFeatureEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { Component as Configurations } from './configurations';

function setup(role: 'owner' | 'auditor' = 'owner') {
  let stored = { ...CONFIG_FLAGS } as Record<keyof typeof CONFIG_FLAGS, boolean>;
  const api = fakeApi()
    .on(sessionEndpoints.getSession, () => makeSession({ role, configurations: stored }))
    .on(tenantFeatureEndpoints.getConfigurations, () => ({ configurations: stored, updatedAt: null }))
    .on(tenantFeatureEndpoints.updateConfigurations, ({ body }) => {
      stored = { ...stored, ...body.configurations };
      return { configurations: stored, updatedAt: '2026-01-01T00:00:00.000Z' };
    });
  const view = renderWithProviders(<Configurations />, {
    route: '/configurations',
    session: makeSession({ role }),
  });
  return { api, ...view };
}

describe('/configurations', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('shows every configuration flag with its description and value', async () => {
    setup();
    const copy = await screen.findByRole('switch', { name: /^Copying allowed/ });
    expect(copy).toBeChecked();
    expect(screen.getByRole('switch', { name: /^Policy groups/ })).not.toBeChecked();
    expect(screen.getByText(/may copy users, groups, policies/)).toBeInTheDocument();
    expect(screen.getAllByRole('switch')).toHaveLength(Object.keys(CONFIG_FLAGS).length);
  });

  it('turns a flag off at once and says so', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('switch', { name: /^Copying allowed/ }));
    await waitFor(() => expect(api.calls(tenantFeatureEndpoints.updateConfigurations)).toHaveLength(1));
    expect(api.calls(tenantFeatureEndpoints.updateConfigurations)[0].sentBody).toEqual({
      configurations: { copyAllowed: false },
    });
    expect(await screen.findByText('Copying allowed turned off.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: /^Copying allowed/ })).not.toBeChecked());
  });

  it('shows the flags without letting a role without tenant:update change them', async () => {
    setup('auditor');
    expect(await screen.findByRole('switch', { name: /^Copying allowed/ })).toBeDisabled();
    expect(screen.getByText('Your role may look at these settings but not change them.')).toBeInTheDocument();
  });
});
