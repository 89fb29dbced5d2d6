import { type App, policyObjectEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { Component as AppsScreen } from './apps';

const app = (appname: string, overrides: Partial<App> = {}): App => ({
  appid: appname.toLowerCase(),
  appname,
  category: 'collaboration',
  domains: [`${appname.toLowerCase()}.com`],
  ips: [],
  custom: false,
  blocked: false,
  usedBy: 0,
  ...overrides,
});

const CATALOG = [
  app('Slack', {
    domains: ['slack.com', 'slack-edge.com', 'slack-imgs.com', 'slack-files.com', 'slackb.com'],
  }),
  app('Salesforce', { blocked: true, usedBy: 3 }),
  app('Zoom'),
  app('7-Zip', { custom: true, category: 'tools' }),
];

/** The fake API of the apps screen: the catalog, narrowed to a letter as the server does. */
function fakeAppsApi() {
  const api = fakeApi().on(policyObjectEndpoints.listApps, ({ query }) => {
    const { letter } = query;
    return letter
      ? CATALOG.filter((a) => (letter === '#' ? /^[^A-Z]/i : new RegExp(`^${letter}`, 'i')).test(a.appname))
      : CATALOG;
  });
  return { api, lists: () => api.calls(policyObjectEndpoints.listApps).map((call) => call.url) };
}

afterEach(() => vi.unstubAllGlobals());

describe('apps screen', () => {
  it('groups apps under letter headings with their badges, and collapses long domain lists', async () => {
    const { api } = fakeAppsApi();
    const { user } = renderWithProviders(<AppsScreen />, { route: '/policy/apps', session: makeSession() });
    const s = await screen.findByRole('region', { name: 'S' });
    expect(
      within(s)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Slack', 'SalesforceBlocked']);
    expect(screen.getByRole('region', { name: '#' })).toHaveTextContent('7-ZipCustom');
    expect(within(s).getByRole('button', { name: /used by 3 rules/i })).toBeInTheDocument();

    expect(within(s).queryByText('slackb.com')).not.toBeInTheDocument();
    const more = within(s).getByRole('button', { name: 'Show all 5 domains of Slack' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await user.click(more);
    expect(within(s).getByText('slackb.com')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('narrows to a letter on the server; the pressed letter says so', async () => {
    const { api, lists } = fakeAppsApi();
    const { user, router } = renderWithProviders(<AppsScreen />, {
      route: '/policy/apps',
      session: makeSession(),
    });
    await screen.findByRole('region', { name: 'S' });
    expect(screen.getByRole('button', { name: 'All letters' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Letter Z' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'S' })).not.toBeInTheDocument());
    expect(screen.getByRole('region', { name: 'Z' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Letter Z' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'All letters' })).toHaveAttribute('aria-pressed', 'false');
    expect(lists().at(-1)?.searchParams.get('letter')).toBe('Z');
    expect(router.state.location.search).toBe('?letter=Z');
    expect(api.unhandled).toEqual([]);
  });
});
