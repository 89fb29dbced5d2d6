import { telemetryEndpoints } from '@palisade/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { ANN, FRANKFURT, fakeDashboardsApi, makeDecision } from '../testing/fixtures';
import { Component as AnalyticsDashboard } from './analytics-dashboard';

function setup(route = '/main-dashboards/analytics') {
  return renderWithProviders(<AnalyticsDashboard />, { route, session: makeSession() });
}

describe('analytics dashboard', () => {
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

  it('shows the top users, devices, rules and gateways by name, and the layers', async () => {
    const api = fakeDashboardsApi();
    setup();
    const users = await screen.findByRole('region', { name: 'Top users' });
    expect(await within(users).findByText('Ann Archer')).toBeInTheDocument();
    expect(within(users).getByText('7,070')).toBeInTheDocument();
    expect(
      await within(screen.getByRole('region', { name: 'Top devices' })).findByText('Ann’s laptop'),
    ).toBeVisible();
    expect(
      await within(screen.getByRole('region', { name: 'Top rules' })).findByText('Block gambling'),
    ).toBeVisible();
    expect(
      await within(screen.getByRole('region', { name: 'Top gateways' })).findByText('Frankfurt'),
    ).toBeVisible();
    const layers = await screen.findByRole('region', { name: 'Decisions per layer' });
    expect(within(layers).getByText('HTTP')).toBeInTheDocument();
    expect(within(layers).getByText('104,567')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('drills down from a user by id, a gateway segment by id and verdict, and a layer', async () => {
    const api = fakeDashboardsApi();
    const { user } = setup();
    const users = await screen.findByRole('region', { name: 'Top users' });
    await user.click(
      await within(users).findByRole('button', { name: 'Ann Archer: 7,070 — show the events' }),
    );
    expect(await screen.findByRole('dialog', { name: 'User Ann Archer' })).toBeInTheDocument();
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(1));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[0].query).toMatchObject({ userId: ANN.id });
    await user.click(screen.getByRole('button', { name: 'Close' }));

    const gateways = screen.getByRole('region', { name: 'Top gateways' });
    await user.click(within(gateways).getByRole('button', { name: 'Blocked, Frankfurt: 300' }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(2));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[1].query).toMatchObject({
      gatewayId: FRANKFURT.id,
      decision: 'block',
    });
    await user.click(screen.getByRole('button', { name: 'Close' }));

    const layers = screen.getByRole('region', { name: 'Decisions per layer' });
    await user.click(within(layers).getByRole('button', { name: 'Allowed, Network: 300,000' }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(3));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[2].query).toMatchObject({
      layer: 'network',
      decision: 'allow',
    });
  });

  it('marks figures that include simulated traffic, and leaves it out on request', async () => {
    const api = fakeDashboardsApi({ simulated: 1_500 });
    const { user } = setup();
    const badge = await screen.findByText('Includes simulated traffic');
    expect(badge).toBeVisible();
    expect(
      screen.getByLabelText(
        '1,500 of these decisions were simulated by a gateway in demo mode, not seen on real traffic.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: /Real traffic only/ }));
    // Every figure is asked again without the simulated decisions, and nothing is marked any more.
    await waitFor(() =>
      expect(
        api
          .calls(telemetryEndpoints.telemetryTop)
          .filter((call) => call.query.source === 'gateway')
          .map((call) => call.query.dimension)
          .sort(),
      ).toEqual(['device', 'gateway', 'rule', 'user']),
    );
    expect(api.calls(telemetryEndpoints.telemetryOverview).at(-1)?.query.source).toBe('gateway');
    await waitFor(() => expect(screen.queryByText('Includes simulated traffic')).not.toBeInTheDocument());
    // A drill-down keeps to the same source.
    const users = screen.getByRole('region', { name: 'Top users' });
    await user.click(
      await within(users).findByRole('button', { name: 'Ann Archer: 7,070 — show the events' }),
    );
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(1));
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[0].query).toMatchObject({
      userId: ANN.id,
      source: 'gateway',
    });
  });

  it('marks each simulated decision of a drill-down', async () => {
    fakeDashboardsApi({
      decisions: [makeDecision('1', { simulated: true, destination: 'made-up.example' })],
    });
    const { user } = setup();
    const users = await screen.findByRole('region', { name: 'Top users' });
    await user.click(
      await within(users).findByRole('button', { name: 'Ann Archer: 7,070 — show the events' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'User Ann Archer' });
    const row = (await within(dialog).findByText('made-up.example')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Simulated')).toBeInTheDocument();
  });

  it('asks every list again with the new range', async () => {
    const api = fakeDashboardsApi();
    const { user } = setup();
    await screen.findByRole('region', { name: 'Top users' });
    await user.click(screen.getByRole('radio', { name: 'Last hour' }));
    await waitFor(() =>
      expect(
        api
          .calls(telemetryEndpoints.telemetryTop)
          .filter((call) => Date.parse(call.query.to) - Date.parse(call.query.from) === 3_600_000)
          .map((call) => call.query.dimension)
          .sort(),
      ).toEqual(['device', 'gateway', 'rule', 'user']),
    );
  });
});
