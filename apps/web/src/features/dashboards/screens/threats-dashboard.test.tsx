import { telemetryEndpoints } from '@palisade/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { colourClasses } from '../components/world-map';
import { fakeDashboardsApi } from '../testing/fixtures';
import { Component as ThreatsDashboard } from './threats-dashboard';

function setup(route = '/main-dashboards/threats') {
  return renderWithProviders(<ThreatsDashboard />, { route, session: makeSession() });
}

describe('threats dashboard', () => {
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

  it('shows the threat hits, the top threats and blocked destinations, asking for blocked decisions', async () => {
    const api = fakeDashboardsApi();
    setup();
    const hits = await screen.findByRole('region', { name: 'Threat hits' });
    expect(within(hits).getByText('4,321')).toBeInTheDocument();
    const series = screen.getByRole('region', { name: 'Blocked requests over time' });
    expect(within(series).getByRole('img')).toHaveAccessibleName(/Requests per hour\. Blocked: 46/);
    const threats = screen.getByRole('region', { name: 'Top threats' });
    expect(await within(threats).findByText('Phishing feed')).toBeInTheDocument();
    expect(within(threats).getByText('321')).toBeInTheDocument();
    const destinations = screen.getByRole('region', { name: 'Top blocked destinations' });
    expect(await within(destinations).findByText('malware.test')).toBeInTheDocument();
    const tops = api.calls(telemetryEndpoints.telemetryTop).map((call) => call.query);
    expect(tops.map((query) => [query.dimension, query.decision]).sort()).toEqual([
      ['country', 'block'],
      ['destination', 'block'],
      ['threat', 'block'],
    ]);
    expect(api.unhandled).toEqual([]);
  });

  it('colours the blocked countries on the world map, with a legend and the same figures as a table', async () => {
    fakeDashboardsApi();
    setup();
    const map = await screen.findByRole('region', { name: 'Blocked countries' });
    const picture = await within(map).findByRole('img', { name: /3 countries, 9,180 blocked requests/ });
    const germany = picture.querySelector('path[data-country="DE"]');
    const russia = picture.querySelector('path[data-country="RU"]');
    const france = picture.querySelector('path[data-country="FR"]');
    expect(germany).not.toBeNull();
    // The most blocked country gets the darkest shade, one without figures the neutral fill.
    expect(russia?.getAttribute('fill')).toBe('var(--mantine-color-red-9)');
    expect(germany?.getAttribute('fill')).toBe('var(--mantine-color-red-7)');
    expect(france?.getAttribute('fill')).toBe('var(--mantine-color-gray-light)');
    expect(germany?.querySelector('title')?.textContent).toBe('Germany: 1,234');

    const legend = within(map).getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['1–6', '7–36', '37–218', '219–1,311', '1,312–7,890', 'None']);

    const table = within(map).getByRole('table', { name: 'Blocked requests by country' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['Russia7,890', 'Germany1,234', 'United States56']);
  });

  it('drills down from a country of the table or the map to its blocked decisions', async () => {
    const api = fakeDashboardsApi();
    const { user } = setup();
    const table = await screen.findByRole('table', { name: 'Blocked requests by country' });
    await user.click(within(table).getByRole('button', { name: 'Germany' }));
    expect(await screen.findByRole('dialog', { name: 'Country Germany: Blocked' })).toBeInTheDocument();
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(1));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[0].query).toMatchObject({
      country: 'DE',
      decision: 'block',
    });
    await user.click(screen.getByRole('button', { name: 'Close' }));

    const russia = document.querySelector('path[data-country="RU"]') as SVGPathElement;
    await user.click(russia);
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(2));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[1].query).toMatchObject({
      country: 'RU',
      decision: 'block',
    });
  });

  it('drills down from a top threat to its blocked decisions', async () => {
    const api = fakeDashboardsApi();
    const { user } = setup();
    const threats = await screen.findByRole('region', { name: 'Top threats' });
    await user.click(
      await within(threats).findByRole('button', { name: 'Phishing feed: 321 — show the events' }),
    );
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(1));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[0].query).toMatchObject({
      threat: 'Phishing feed',
      decision: 'block',
    });
  });

  it('asks again with the new range', async () => {
    const api = fakeDashboardsApi();
    const { user } = setup();
    await screen.findByRole('region', { name: 'Threat hits' });
    await user.click(screen.getByRole('radio', { name: 'Last 30 days' }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.telemetryOverview)).toHaveLength(2));
    const { from, to } = api.calls(telemetryEndpoints.telemetryOverview)[1].query;
    expect(Date.parse(to) - Date.parse(from)).toBe(30 * 86_400_000);
  });
});

describe('colourClasses', () => {
  it('splits the counts on a logarithmic scale, dropping classes that would be empty', () => {
    expect(colourClasses(0)).toEqual([]);
    expect(colourClasses(1).map((entry) => [entry.min, entry.max])).toEqual([[1, 1]]);
    expect(colourClasses(3).map((entry) => [entry.min, entry.max])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(colourClasses(100_000).map((entry) => [entry.min, entry.max])).toEqual([
      [1, 10],
      [11, 100],
      [101, 1_000],
      [1_001, 10_000],
      [10_001, 100_000],
    ]);
  });
});
