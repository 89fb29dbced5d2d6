import { sitePerformanceEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { sitePerformanceQueryOptions } from '../api/get-site-performance';
import { BERLIN, BERLIN_ID, fakeSitePerformanceApi, MUNICH_ID } from '../testing/fixtures';
import { Component as SitePerformance } from './site-performance';

function renderScreen(route = '/devices/site-performance') {
  return renderWithProviders(<SitePerformance />, { route, session: makeSession() });
}

type User = ReturnType<typeof renderScreen>['user'];

/** What the screen asked the server: each request's query. */
const asked = (api: FakeApi) =>
  api
    .calls(sitePerformanceEndpoints.getSitePerformance)
    .map((call) => Object.fromEntries(call.url.searchParams));

/** Picks `option` of the Mantine select labelled `label` (its dropdown counts as hidden in happy-dom). */
async function choose(user: User, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

/** The card of a site, found by its name (the card's heading). */
const cardOf = (name: string) => screen.findByRole('article', { name });

/** The summary figure under `term` in a card. */
function figure(card: HTMLElement, term: string): string {
  const dt = within(card).getByText(term, { selector: 'dt' });
  return dt.nextElementSibling?.textContent ?? '';
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  // happy-dom lays nothing out: the charts' container measures itself with this, and draws nothing at 0 × 0.
  // Only the container has a size; the legend keeps none, as if it took no room.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const isChart = this.classList.contains('recharts-responsive-container');
    return DOMRect.fromRect(isChart ? { width: 480, height: 180 } : {});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('site performance screen', { timeout: 20_000 }, () => {
  it('shows each site with its kind, region, status and the figures of the range', async () => {
    const api = fakeSitePerformanceApi();
    renderScreen();

    const berlin = await cardOf('Berlin office');
    expect(within(berlin).getByRole('link', { name: 'Berlin office' })).toHaveAttribute(
      'href',
      `/devices/${BERLIN_ID}`,
    );
    expect(within(berlin).getByText('Site gateway (CGW)')).toBeInTheDocument();
    expect(within(berlin).getByText('Berlin, Alexanderplatz')).toBeInTheDocument();
    expect(within(berlin).getByText('Online')).toBeInTheDocument();
    expect(figure(berlin, 'Latency')).toBe('27 ms');
    expect(figure(berlin, 'Loss')).toBe('0.5%');
    expect(figure(berlin, 'Throughput')).toBe('12 Mb/s');
    expect(figure(berlin, 'Tunnel uptime')).toBe('66.7%');
    // Each chart is one image with a name; the figures are in the table.
    for (const measure of ['Latency', 'Throughput', 'Loss and tunnel uptime']) {
      expect(
        within(berlin).getByRole('img', {
          name: `Chart: ${measure} of Berlin office over the last 24 hours. The figures are in the table below.`,
        }),
      ).toBeInTheDocument();
    }

    const munich = await cardOf('Munich shop');
    expect(within(munich).getByText('Site gateway with router (CGWR)')).toBeInTheDocument();
    expect(within(munich).getByText('Offline')).toBeInTheDocument();
    expect(within(munich).getByText('Not heard from in this range.')).toBeInTheDocument();
    expect(figure(munich, 'Latency')).toBe('—No data');
    expect(figure(munich, 'Tunnel uptime')).toBe('0%');
    expect(within(munich).queryByRole('img')).not.toBeInTheDocument();
    expect(within(munich).queryByRole('table')).not.toBeInTheDocument();

    expect(screen.getByRole('heading', { level: 1, name: 'Site performance' })).toBeInTheDocument();
    expect(screen.getByText('Each point of the charts covers 15 minutes.')).toBeInTheDocument();
    expect(asked(api)).toEqual([{ range: '24h' }]);
    expect(api.unhandled).toEqual([]);
  });

  it('gives screen readers the figures of the charts as a table, gaps said as such', async () => {
    fakeSitePerformanceApi();
    renderScreen();
    const berlin = await cardOf('Berlin office');
    const table = within(berlin).getByRole('table', {
      name: 'Figures of Berlin office over the last 24 hours, one row per 15 minutes',
    });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Time', 'Latency', 'Loss', 'Throughput', 'Tunnel uptime']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['24 ms', '0.5%', '12.5 Mb/s', '100%'],
      ['Not heard from', 'Not heard from', 'Not heard from', '0%'],
      ['3.3 ms', '12.5%', '2 Mb/s', '100%'],
    ]);
    // Each row is headed by its time.
    expect(within(table).getAllByRole('rowheader')).toHaveLength(3);
  });

  it('draws each series in the theme’s colours, with gaps where the gateway was not heard from', async () => {
    fakeSitePerformanceApi();
    renderScreen();
    const berlin = await cardOf('Berlin office');
    const chart = (measure: string) =>
      within(berlin).getByRole('img', { name: new RegExp(`^Chart: ${measure} of Berlin office`) });
    await waitFor(() => {
      expect(chart('Latency').querySelector('.recharts-line-curve')).not.toBeNull();
      expect(chart('Throughput').querySelector('.recharts-area-curve')).not.toBeNull();
      expect(chart('Loss and tunnel uptime').querySelectorAll('.recharts-area-curve')).toHaveLength(2);
    });

    // Three points, the middle one null: two pieces that are not joined (each piece starts with a move).
    const latency = chart('Latency').querySelector('.recharts-line-curve') as SVGPathElement;
    expect(latency.getAttribute('d')?.match(/M/g)).toHaveLength(2);
    expect(latency.getAttribute('stroke')).toBe('var(--mantine-color-blue-6)');
    const throughput = chart('Throughput').querySelector('.recharts-area-curve') as SVGPathElement;
    expect(throughput.getAttribute('d')?.match(/M/g)).toHaveLength(2);
    // Uptime is a share of minutes (0 where not heard from, never null); loss has a gap.
    const [uptime, loss] = [...chart('Loss and tunnel uptime').querySelectorAll('.recharts-area-curve')];
    expect(uptime.getAttribute('d')?.match(/M/g)).toHaveLength(1);
    expect(loss.getAttribute('d')?.match(/M/g)).toHaveLength(2);
    expect(loss.getAttribute('stroke')).toBe('var(--mantine-color-red-6)');
    // Nothing in a chart is reached with Tab: to a screen reader it is one image.
    const tabbable = [...chart('Latency').querySelectorAll<HTMLElement>('[tabindex]')].filter(
      (element) => element.tabIndex >= 0,
    );
    expect(tabbable).toEqual([]);
  });

  it('asks the server for the range chosen and keeps it in the address', async () => {
    const api = fakeSitePerformanceApi();
    const { user, router } = renderScreen();
    await cardOf('Berlin office');

    await user.click(screen.getByRole('radio', { name: '7 days' }));
    await waitFor(() => expect(asked(api)).toContainEqual({ range: '7d' }));
    expect(new URLSearchParams(router.state.location.search).get('range')).toBe('7d');
    expect(
      await screen.findByRole('table', {
        name: 'Figures of Berlin office over the last 7 days, one row per 2 hours',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Time range' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '7 days' })).toBeChecked();

    await user.click(screen.getByRole('radio', { name: 'Last hour' }));
    await waitFor(() => expect(asked(api)).toContainEqual({ range: '1h' }));
    expect(await screen.findByText('Each point of the charts covers 1 minute.')).toBeInTheDocument();
  });

  it('shows one site when the filter names it, kept in the address', async () => {
    const api = fakeSitePerformanceApi();
    const { user, router } = renderScreen();
    await cardOf('Berlin office');

    await choose(user, 'Site', 'Munich shop');
    await waitFor(() => expect(asked(api)).toContainEqual({ range: '24h', gatewayId: MUNICH_ID }));
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Berlin office' })).not.toBeInTheDocument(),
    );
    expect(await cardOf('Munich shop')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('gateway')).toBe(MUNICH_ID);

    await choose(user, 'Site', 'All sites');
    expect(await cardOf('Berlin office')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).has('gateway')).toBe(false);
    expect(api.unhandled).toEqual([]);
  });

  it('opens on the range and site the address names, and offers every site to switch to', async () => {
    const api = fakeSitePerformanceApi();
    renderScreen(`/devices/site-performance?range=1h&gateway=${BERLIN_ID}`);
    expect(await cardOf('Berlin office')).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Munich shop' })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Last hour' })).toBeChecked();
    // The filter's choices come from the answer for all sites.
    await waitFor(() =>
      expect(asked(api)).toEqual(
        expect.arrayContaining([{ range: '1h', gatewayId: BERLIN_ID }, { range: '1h' }]),
      ),
    );
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Site' })).toHaveValue('Berlin office'));
  });

  it('invites to add a site gateway when the tenant has none', async () => {
    fakeSitePerformanceApi([]);
    renderScreen();
    expect(await screen.findByText(/No site gateway yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add site gateway' })).toHaveAttribute(
      'href',
      '/devices/new/add',
    );
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(screen.queryByRole('radiogroup', { name: 'Time range' })).not.toBeInTheDocument();
  });

  it('says so when the site the address names is not one of the tenant’s, and offers all sites', async () => {
    const api = fakeSitePerformanceApi([BERLIN]);
    const { user } = renderScreen(`/devices/site-performance?gateway=${MUNICH_ID}`);
    expect(await screen.findByText(/There are no figures for this site/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all sites' }));
    expect(await cardOf('Berlin office')).toBeInTheDocument();
    expect(asked(api)).toContainEqual({ range: '24h', gatewayId: MUNICH_ID });
  });

  it('refreshes every 30 seconds while the tab is visible', () => {
    const options = sitePerformanceQueryOptions('acme', { range: '24h' });
    expect(options.refetchInterval).toBe(30_000);
    expect(options.refetchIntervalInBackground).toBe(false);
  });
});
