import { systemEndpoints } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { embedTarget } from '../../lib/embed-links';
import { fakeApi } from '../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../testing/render';
import { EmbedShareButton } from './embed-share-button';

const config = (dashboardBaseUrl: string | null) => ({
  signOutPartners: [],
  posthogKey: null,
  posthogHost: null,
  dashboardBaseUrl,
});

describe('the Embed button of a dashboard', () => {
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the link of the dashboard for this session on the configured host, to copy, with the warning', async () => {
    const api = fakeApi().on(systemEndpoints.publicConfig, () =>
      config('https://dash.example.com/palisade/'),
    );
    const { user } = renderWithProviders(
      <EmbedShareButton
        targets={[
          embedTarget('agentless', { tenant: 'acme' }),
          embedTarget('xdr', { tenant: 'acme', tenantType: 'customer' }),
        ]}
      />,
      { session: makeSession() },
    );
    // Nothing is fetched until the links are asked for.
    expect(api.requests).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Embed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Embed this dashboard' });
    expect(within(dialog).getByText('The link carries your session')).toBeInTheDocument();
    const agentless = await within(dialog).findByRole('textbox', { name: 'Agentless access' });
    expect(agentless).toHaveValue('https://dash.example.com/palisade/embed/agentless/acme?sid=test-session');
    expect(within(dialog).getByRole('textbox', { name: 'XDR' })).toHaveValue(
      'https://dash.example.com/palisade/embed/xdr/acme/customer?sid=test-session',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Copy the link of XDR' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(
      'https://dash.example.com/palisade/embed/xdr/acme/customer?sid=test-session',
    );
    expect(
      await screen.findByText('Link copied. It carries your session: share it with care.'),
    ).toBeInTheDocument();
  });

  it('points to this console’s own embedded views when no dashboard host is configured', async () => {
    fakeApi().on(systemEndpoints.publicConfig, () => config(null));
    const { user } = renderWithProviders(<EmbedShareButton targets={[embedTarget('global')]} />, {
      session: makeSession(),
    });
    await user.click(screen.getByRole('button', { name: 'Embed' }));
    const link = await screen.findByRole('textbox', { name: 'Global live dashboard' });
    expect(link).toHaveValue(`${window.location.origin}/embed/global?sid=test-session`);
  });
});
