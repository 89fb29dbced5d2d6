import { telemetryEndpoints } from '@palisade/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { FRANKFURT, fakeDashboardsApi } from '../testing/fixtures';
import { parseRange } from '../utils/range';
import { Component as SpaDashboard } from './spa-dashboard';

const HOUR = 3_600_000;

function setup(route = '/main-dashboards/SPADashboard') {
  return renderWithProviders(<SpaDashboard />, { route, session: makeSession() });
}

describe('SPA dashboard', () => {
  beforeEach(() => {
    // A preset range ends at the next full minute: a fixed clock keeps it from moving in the middle of a test.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-02T09:45:30.000Z'));
  });
  afterEach(() => {
    // Unmounted before the clock is real again: a new minute would move the range and ask for it.
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows per site gateway the users, devices, sessions, duration and data, with totals', async () => {
    const api = fakeDashboardsApi();
    setup();
    const table = await screen.findByRole('table', { name: 'Private access per site' });
    const frankfurt = within(table).getByRole('row', { name: /Frankfurt/ });
    expect(within(frankfurt).getByText('1,234')).toBeInTheDocument();
    expect(within(frankfurt).getByText('2,000')).toBeInTheDocument();
    expect(within(frankfurt).getByText('5,678')).toBeInTheDocument();
    // Spec §9: days, hours, minutes and seconds.
    expect(within(frankfurt).getByText('1d 2h 3m 4s')).toBeInTheDocument();
    expect(within(frankfurt).getByText('2.5 MB')).toBeInTheDocument();
    const berlin = within(table).getByRole('row', { name: /Berlin office/ });
    expect(within(berlin).getByText('1m 5s')).toBeInTheDocument();
    expect(within(berlin).getByText('999 bytes')).toBeInTheDocument();

    expect(within(screen.getByRole('region', { name: 'Sessions' })).getByText('5,683')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Total duration' })).getByText('1d 2h 4m 9s'),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Sessions per site' })).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /Sessions per site, Sessions in the time range/ }),
    ).toBeInTheDocument();

    const [call] = api.calls(telemetryEndpoints.privateAccessSummary);
    expect(Date.parse(call.query.to) - Date.parse(call.query.from)).toBe(24 * HOUR);
    expect(api.unhandled).toEqual([]);
  });

  it('leads from a site to its connection events over the same range', async () => {
    const api = fakeDashboardsApi();
    setup();
    const link = await screen.findByRole('link', { name: 'Connection events of Frankfurt' });
    const href = new URL(link.getAttribute('href') ?? '', 'http://localhost');
    expect(href.pathname).toBe('/events/connection-status');
    expect(href.searchParams.get('gatewayId')).toBe(FRANKFURT.id);
    expect(href.searchParams.get('range')).toBe('custom');
    // The connection events screen reads a custom range in local time to the minute, as this one writes it.
    const { from, to } = api.calls(telemetryEndpoints.privateAccessSummary)[0].query;
    const range = parseRange(href.searchParams);
    expect(new Date(range.from).toISOString()).toBe(from);
    expect(new Date(range.to).toISOString()).toBe(to);
  });

  it('asks again when the range changes', async () => {
    const api = fakeDashboardsApi();
    const { user } = setup();
    await screen.findByRole('table', { name: 'Private access per site' });
    await user.click(screen.getByRole('radio', { name: 'Last 30 days' }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.privateAccessSummary)).toHaveLength(2));
    const { from, to } = api.calls(telemetryEndpoints.privateAccessSummary)[1].query;
    expect(Date.parse(to) - Date.parse(from)).toBe(30 * 24 * HOUR);
  });

  it('says when no site had sessions', async () => {
    fakeDashboardsApi({ privateAccess: { sites: [] } });
    setup();
    expect(
      await screen.findByText('No site gateway had private access sessions in this time range.'),
    ).toBeInTheDocument();
  });
});
