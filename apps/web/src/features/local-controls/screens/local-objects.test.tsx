import { localControlsEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { fakeLocalControlsApi } from '../testing/fake-local-controls';
import { ABUSE, BERLIN_ID, BERLIN_VIEW } from '../testing/fixtures';
import { Component as CgwCategories } from './cgw-categories';
import { Component as LocalGeoControls } from './local-geo-controls';
import { Component as LocalPolicies } from './local-policies';
import { Component as MaliciousSites } from './malicious-sites';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the other local-control screens', { timeout: 30_000 }, () => {
  it('blocks another web category and saves it with the other lists as loaded', async () => {
    const api = fakeLocalControlsApi();
    const { user } = renderWithProviders(<CgwCategories />, {
      route: '/devices/cgw-categories',
      session: makeSession(),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Local web categories' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Web categories blocked by Berlin office' }),
    ).toBeVisible();
    const gambling = await screen.findByRole('checkbox', { name: 'Gambling' });
    expect(gambling).toBeChecked();
    expect(gambling).toHaveAccessibleDescription('Content category · 1 domain');
    const malware = screen.getByRole('checkbox', { name: 'Malware' });
    expect(malware).toHaveAccessibleDescription('Security category · 1,200 domains');
    expect(screen.getByRole('checkbox', { name: 'Shop floor blocklist' })).not.toBeChecked();

    await user.click(malware);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls(localControlsEndpoints.putLocalControls)).toHaveLength(1));
    expect(api.calls(localControlsEndpoints.putLocalControls)[0].sentBody).toEqual({
      policyIds: BERLIN_VIEW.policyIds,
      // In the order the categories are listed.
      categories: ['malware', 'gambling'],
      countries: BERLIN_VIEW.countries,
      feeds: BERLIN_VIEW.feeds,
    });
    expect(await screen.findByText(/Local controls of “Berlin office” saved/)).toBeInTheDocument();
  });

  it('blocks a country by its name and shows the server’s refusal at the countries', async () => {
    const api = fakeLocalControlsApi();
    const { user } = renderWithProviders(<LocalGeoControls />, {
      route: '/devices/local-geo-controls',
      session: makeSession(),
    });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Countries blocked by Berlin office' }),
    ).toBeVisible();
    const field = await screen.findByRole('combobox', { name: 'Countries to block' });
    // The chosen country shows by its name.
    expect(screen.getByText('Russia')).toBeInTheDocument();
    await user.click(field);
    await user.type(field, 'North');
    await user.click(await screen.findByRole('option', { name: 'North Korea', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls(localControlsEndpoints.putLocalControls)).toHaveLength(1));
    expect(api.calls(localControlsEndpoints.putLocalControls)[0].sentBody).toEqual({
      policyIds: BERLIN_VIEW.policyIds,
      categories: BERLIN_VIEW.categories,
      countries: ['RU', 'KP'],
      feeds: BERLIN_VIEW.feeds,
    });

    api.on(localControlsEndpoints.putLocalControls, () =>
      apiError('validation_failed', {
        details: [{ path: 'body.countries.0', message: 'validation.country' }],
      }),
    );
    await user.click(field);
    await user.type(field, 'Fra');
    await user.click(await screen.findByRole('option', { name: 'France', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Countries to block' })).toHaveAccessibleDescription(
        expect.stringContaining('Russia: Enter a two-letter country code such as DE.'),
      ),
    );
  });

  it('lists the feeds with their kind and size, and shows an unknown feed at the feed', async () => {
    const api = fakeLocalControlsApi();
    api.on(localControlsEndpoints.putLocalControls, () =>
      apiError('validation_failed', {
        details: [{ path: 'body.feeds.1', message: 'validation.unknownFeed' }],
      }),
    );
    const { user } = renderWithProviders(<MaliciousSites />, {
      route: `/devices/malicious-sites?gateway=${BERLIN_ID}`,
      session: makeSession(),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Malicious sites' })).toBeInTheDocument();
    const bogons = await screen.findByRole('checkbox', { name: 'Bogon networks' });
    expect(bogons).toBeChecked();
    expect(bogons).toHaveAccessibleDescription('Built-in feed · 0 domains · 14 IP entries');
    const abuse = screen.getByRole('checkbox', { name: ABUSE.name });
    expect(abuse).toHaveAccessibleDescription('URL feed · 2,500 domains · 1 IP entry · Disabled');

    await user.click(abuse);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(abuse).toHaveAccessibleDescription(
        expect.stringContaining('This threat-intelligence feed does not exist in this tenant.'),
      ),
    );
    expect(api.calls(localControlsEndpoints.putLocalControls)[0].sentBody).toMatchObject({
      feeds: ['builtin-bogons', ABUSE.id],
    });
    expect(bogons).toHaveAccessibleDescription('Built-in feed · 0 domains · 14 IP entries');
  });

  it('shows a role that sees the gateways but not the policies what is chosen, without changing it', async () => {
    const api = fakeLocalControlsApi();
    renderWithProviders(<LocalPolicies />, {
      route: '/devices/local-policies',
      session: makeSession({ role: 'helpdesk' }),
    });
    const list = await screen.findByRole('list', { name: 'Policies enforced locally' });
    expect(within(list).getByText('Staff web')).toBeInTheDocument();
    expect(
      screen.getByText(/Your role can see the local controls but cannot change them/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });
});
