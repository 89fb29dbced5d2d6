import { telemetryEndpoints } from '@palisade/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import de from '../../../../public/locales/de/translation.json';
import { i18n } from '../../../lib/i18n';
import { apiError } from '../../../testing/fake-api';
import { initTestI18n, makeSession, renderWithProviders } from '../../../testing/render';
import { fakeDashboardsApi } from '../testing/fixtures';
import { Component as SiaDashboard } from './sia-dashboard';

const HOUR = 3_600_000;

function setup(route = '/main-dashboards/SIADashboard', session = makeSession()) {
  return renderWithProviders(<SiaDashboard />, { route, session });
}

const spanOf = (query: { from: string; to: string }) => Date.parse(query.to) - Date.parse(query.from);

describe('SIA dashboard', () => {
  beforeEach(() => {
    // A preset range ends at the next full minute: a fixed clock keeps it from moving in the middle of a test.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-02T09:45:30.000Z'));
  });
  afterEach(async () => {
    // Unmounted before the clock is real again: a new minute would move the range and ask for it.
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    await i18n.changeLanguage('en');
  });

  it('shows the figures of the last 24 hours with thousands grouping and units, and the top lists', async () => {
    const api = fakeDashboardsApi();
    setup();
    const decisions = await screen.findByRole('region', { name: 'Decisions' });
    expect(within(decisions).getByText('1,234,567')).toBeInTheDocument();
    expect(within(decisions).getByText('requests')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Blocked' })).getByText('34,567')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Threat hits' })).getByText('4,321'),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Users' })).getByText('1,234')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Devices' })).getByText('2,345')).toBeInTheDocument();
    const data = screen.getByRole('region', { name: 'Data' });
    expect(within(data).getByText('1.5 GB')).toBeInTheDocument();
    expect(within(data).getByText('1,500,000,000 bytes')).toBeInTheDocument();

    // Per hour over 24 hours, the unit says so; the chart is named with its totals.
    const series = screen.getByRole('region', { name: 'Allowed and blocked requests over time' });
    expect(within(series).getByText('Requests per hour')).toBeInTheDocument();
    expect(within(series).getByRole('img')).toHaveAccessibleName(/Allowed: 4,000, Blocked: 46/);

    const categories = await screen.findByRole('region', { name: 'Top categories' });
    expect(await within(categories).findByText('Gambling')).toBeInTheDocument();
    expect(within(categories).getByText('1,334')).toBeInTheDocument();
    expect(within(categories).getByText('9,876')).toBeInTheDocument();
    const countries = await screen.findByRole('region', { name: 'Top countries' });
    expect(await within(countries).findByText('Germany')).toBeInTheDocument();
    const layers = screen.getByRole('region', { name: 'Decisions per layer' });
    expect(within(layers).getByText('820,000')).toBeInTheDocument();

    const overview = api.calls(telemetryEndpoints.telemetryOverview)[0];
    expect(overview.params.tenant).toBe('acme');
    expect(spanOf(overview.query)).toBe(24 * HOUR);
    const dimensions = api.calls(telemetryEndpoints.telemetryTop).map((call) => call.query.dimension);
    expect(dimensions.sort()).toEqual(['app', 'category', 'country', 'destination', 'threat']);
    expect(api.unhandled).toEqual([]);
  });

  it('asks again with the new range when the range changes, and keeps it in the address', async () => {
    const api = fakeDashboardsApi();
    const { user, router } = setup();
    await screen.findByRole('region', { name: 'Decisions' });
    await user.click(screen.getByRole('radio', { name: 'Last 7 days' }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.telemetryOverview)).toHaveLength(2));
    const [first, second] = api.calls(telemetryEndpoints.telemetryOverview);
    expect(spanOf(second.query)).toBe(7 * 24 * HOUR);
    expect(second.query.to).toBe(first.query.to);
    expect(router.state.location.search).toBe('?range=7d');
    await waitFor(() =>
      expect(
        api.calls(telemetryEndpoints.telemetryTop).filter((call) => spanOf(call.query) === 7 * 24 * HOUR),
      ).toHaveLength(5),
    );

    await user.click(screen.getByRole('radio', { name: 'Last hour' }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.telemetryOverview)).toHaveLength(3));
    expect(spanOf(api.calls(telemetryEndpoints.telemetryOverview)[2].query)).toBe(HOUR);
    // Per minute up to 6 hours.
    expect(await screen.findByText('Requests per minute')).toBeInTheDocument();
  });

  it('asks for a custom range from the address, in the browser’s time zone', async () => {
    const api = fakeDashboardsApi();
    setup('/main-dashboards/SIADashboard?range=custom&from=2026-03-01T09:30&to=2026-03-02T10:00');
    await screen.findByRole('region', { name: 'Decisions' });
    expect(api.calls(telemetryEndpoints.telemetryOverview)[0].query).toEqual({
      from: new Date(2026, 2, 1, 9, 30).toISOString(),
      to: new Date(2026, 2, 2, 10, 0).toISOString(),
    });
    expect(await screen.findByLabelText('From')).toHaveTextContent('Mar 1, 2026 9:30 AM');
    expect(screen.getByLabelText('To')).toHaveTextContent('Mar 2, 2026 10:00 AM');
  });

  it('opens a custom range from the address, and asks for nothing while it is incomplete', async () => {
    const api = fakeDashboardsApi();
    setup('/main-dashboards/SIADashboard?range=custom&from=2026-03-01T09:30');
    expect(await screen.findByText('Choose a start and an end.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Custom' })).toBeChecked();
    expect(api.requests).toEqual([]);
  });

  it('drills down from a bar of a top list to its decisions, page after page, with their export', async () => {
    const api = fakeDashboardsApi();
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:decisions');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const { user } = setup();
    const categories = await screen.findByRole('region', { name: 'Top categories' });
    await user.click(
      await within(categories).findByRole('button', { name: 'Gambling: 1,334 — show the events' }),
    );

    const drawer = await screen.findByRole('dialog', { name: 'Category Gambling' });
    expect(await within(drawer).findByText('casino.example')).toBeInTheDocument();
    expect(within(drawer).getByText('2 events; 1 shown')).toBeInTheDocument();
    const overview = api.calls(telemetryEndpoints.telemetryOverview)[0].query;
    const [firstPage] = api.calls(telemetryEndpoints.listDecisionEvents);
    expect(firstPage.query).toMatchObject({
      category: 'Gambling',
      from: overview.from,
      to: overview.to,
      limit: 50,
    });
    expect(firstPage.query.decision).toBeUndefined();
    expect(firstPage.query.cursor).toBeUndefined();

    await user.click(within(drawer).getByRole('button', { name: 'Load more' }));
    expect(await within(drawer).findByText('poker.example')).toBeInTheDocument();
    const secondPage = api.calls(telemetryEndpoints.listDecisionEvents)[1];
    expect(secondPage.query).toMatchObject({ category: 'Gambling', cursor: 'page2', withTotal: 'false' });
    expect(within(drawer).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Export as CSV' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0].download).toBe('decisions-acme.csv');
    const exported = api.calls(telemetryEndpoints.exportDecisionEvents)[0];
    expect(exported.headers.get('X-Auth-Token')).toBe('test-session');
    expect(exported.query).toMatchObject({ category: 'Gambling', from: overview.from, to: overview.to });
    expect(api.unhandled).toEqual([]);
  });

  it('drills down from a segment to its verdict, from a layer, and from a bucket of the series', async () => {
    const api = fakeDashboardsApi();
    const { user } = setup();
    const countries = await screen.findByRole('region', { name: 'Top countries' });
    await user.click(await within(countries).findByRole('button', { name: 'Blocked, Germany: 1,234' }));
    expect(await screen.findByRole('dialog', { name: 'Country Germany: Blocked' })).toBeInTheDocument();
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(1));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[0].query).toMatchObject({
      country: 'DE',
      decision: 'block',
    });
    await user.click(screen.getByRole('button', { name: 'Close' }));

    const layers = screen.getByRole('region', { name: 'Decisions per layer' });
    await user.click(within(layers).getByRole('button', { name: 'DNS: 820,000 — show the events' }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(2));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[1].query).toMatchObject({ layer: 'dns' });
    await user.click(screen.getByRole('button', { name: 'Close' }));

    const series = screen.getByRole('region', { name: 'Allowed and blocked requests over time' });
    await user.click(within(series).getByRole('button', { name: 'Show the figures as a table' }));
    const bucket = api.calls(telemetryEndpoints.telemetryOverview)[0];
    const start = Date.parse(bucket.query.from) + 2 * HOUR;
    await user.click(within(series).getByRole('button', { name: /^Blocked at .*: 34$/ }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(3));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[2].query).toMatchObject({
      decision: 'block',
      from: new Date(start).toISOString(),
      to: new Date(start + HOUR).toISOString(),
    });
  });

  it('tells a role without the events why the drill-down has no list', async () => {
    const api = fakeDashboardsApi();
    const { user } = setup(undefined, makeSession({ role: 'billing_admin' }));
    const categories = await screen.findByRole('region', { name: 'Top categories' });
    await user.click(
      await within(categories).findByRole('button', { name: 'Gambling: 1,334 — show the events' }),
    );
    const drawer = await screen.findByRole('dialog');
    expect(
      within(drawer).getByText('Your role does not allow viewing the events behind this figure.'),
    ).toBeInTheDocument();
    expect(api.calls(telemetryEndpoints.listDecisionEvents)).toEqual([]);
  });

  it('shows a failure in place with a retry', async () => {
    const api = fakeDashboardsApi();
    let refused = true;
    api.on(telemetryEndpoints.telemetryOverview, ({ query }) => {
      if (refused) {
        refused = false;
        return apiError('forbidden');
      }
      return {
        from: query.from,
        to: query.to,
        bucket: 'hour' as const,
        totals: {
          decisions: 5,
          allowed: 5,
          blocked: 0,
          threats: 0,
          connections: 0,
          deviceEvents: 0,
          bytes: 0,
          users: 1,
          devices: 1,
          simulated: 0,
        },
        series: [],
        layers: [],
      };
    });
    const { user } = setup();
    const alert = await screen.findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Decisions' })).toHaveTextContent('5');
  });

  it('speaks German with German number formats', async () => {
    fakeDashboardsApi();
    initTestI18n();
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await i18n.changeLanguage('de');
    setup();
    const decisions = await screen.findByRole('region', { name: 'Entscheidungen' });
    expect(within(decisions).getByText('1.234.567')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Daten' })).getByText('1,5 GB')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Top-Kategorien' })).toBeInTheDocument();
  });
});
