import {
  CONFIG_FLAGS,
  type DashboardSummary,
  dashboardEndpoints,
  FEATURE_FLAGS,
  type FeatureFlag,
  telemetryEndpoints,
  tenantFeatureEndpoints,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import de from '../../../../public/locales/de/translation.json';
import { i18n } from '../../../lib/i18n';
import { apiError, type FakeAnswer, fakeApi } from '../../../testing/fake-api';
import { initTestI18n, makeSession, renderWithProviders } from '../../../testing/render';
import { Component as SaseDashboard } from './sase-dashboard';

function summary(overrides: Partial<DashboardSummary> = {}): DashboardSummary {
  return {
    users: 12_345,
    connectedUsers: 1_200,
    privateAccessUsers: 40,
    internetAccessUsers: 7,
    xdrUsers: 3,
    administrators: 2,
    groups: 1_000_000,
    recentEvents: [
      {
        id: 'e1',
        at: new Date(Date.now() - 5 * 60_000 - 5_000).toISOString(),
        actor: 'admin@acme.example',
        action: 'user.create',
        objectType: 'user',
        objectId: 'u1',
        objectName: 'alice@acme.example',
        ip: '10.0.0.1',
      },
    ],
    ...overrides,
  };
}

/** Every feature flag but XDR. */
const WITHOUT_XDR = FEATURE_FLAGS.filter((flag) => flag !== 'xdr');

/**
 * The fake API of the dashboard: `answer` answers the summary (every time it is asked); the telemetry row gets
 * three hours of the range with traffic and two blocked categories, and its drill-down one decision. A tenant
 * other than the working one (named in the path) has `otherFeatures`.
 */
function fakeDashboardApi(
  answer: () => FakeAnswer<typeof dashboardEndpoints.summary> = () => summary(),
  otherFeatures: FeatureFlag[] = [...FEATURE_FLAGS],
) {
  const api = fakeApi()
    .on(dashboardEndpoints.summary, answer)
    .on(tenantFeatureEndpoints.getTenantFlags, ({ params }) => ({
      tenant: params.tenant,
      features: otherFeatures,
      configurations: { ...CONFIG_FLAGS },
    }))
    .on(telemetryEndpoints.telemetryOverview, ({ query }) => {
      const at = (hours: number) => new Date(Date.parse(query.from) + hours * 3_600_000).toISOString();
      return {
        from: query.from,
        to: query.to,
        bucket: 'hour' as const,
        totals: {
          decisions: 13_579,
          allowed: 12_345,
          blocked: 1_234,
          threats: 12,
          connections: 3,
          deviceEvents: 0,
          bytes: 1_000,
          users: 2,
          devices: 2,
          simulated: 0,
        },
        series: [
          { at: at(0), allowed: 10_000, blocked: 1_000, connections: 1, bytes: 500 },
          { at: at(1), allowed: 2_345, blocked: 234, connections: 2, bytes: 500 },
        ],
        layers: [],
      };
    })
    .on(telemetryEndpoints.telemetryTop, ({ query }) => ({
      dimension: query.dimension,
      simulated: 0,
      items: [
        { value: 'Gambling', label: 'Gambling', allowed: 0, blocked: 1_111 },
        { value: 'Malware', label: 'Malware', allowed: 0, blocked: 123 },
      ],
    }))
    .on(telemetryEndpoints.listDecisionEvents, () => ({
      items: [
        {
          id: 'gw.1',
          at: '2026-03-02T09:30:00.000Z',
          source: 'gateway' as const,
          gateway: null,
          user: null,
          device: null,
          layer: 'dns' as const,
          decision: 'block' as const,
          destination: 'casino.example',
          port: null,
          protocol: null,
          category: 'Gambling',
          app: null,
          country: null,
          ruleName: null,
          threat: null,
          bytes: null,
          simulated: false,
        },
      ],
      total: 1,
      totalIsEstimate: false,
      nextCursor: null,
    }));
  return { api, summaries: () => api.calls(dashboardEndpoints.summary) };
}

function setup(path = '/main-dashboards/global/SASEDashboard', session = makeSession()) {
  return renderWithProviders(<SaseDashboard />, {
    route: path,
    path: '/main-dashboards/:id/SASEDashboard',
    session,
  });
}

describe('SASE dashboard', () => {
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  it("shows the working tenant's counts grouped in thousands and the recent events", async () => {
    const { api, summaries } = fakeDashboardApi();
    setup();
    const users = await screen.findByRole('region', { name: 'Users' });
    expect(within(users).getByText('12,345')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Groups' })).getByText('1,000,000')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Connected' })).getByText('1,200')).toBeInTheDocument();
    const row = screen.getByRole('row', { name: /alice@acme\.example/ });
    expect(within(row).getByText('5 minutes ago')).toBeInTheDocument();
    expect(within(row).getByText('User created')).toBeInTheDocument();
    expect(summaries()[0].url.pathname).toBe('/api/dashboard/acme/summary');
    expect(api.unhandled).toEqual([]);
  });

  it('shows the traffic of the last 24 hours, each bar drilling down to its decisions', async () => {
    const { api } = fakeDashboardApi();
    const { user } = setup();
    // The telemetry row is a lazy chunk with the chart library: loaded cold, it takes more than findBy's second on
    // a busy machine.
    const categories = await screen.findByRole(
      'region',
      { name: 'Top 5 blocked categories' },
      { timeout: 10_000 },
    );
    expect(within(categories).getByText('Blocked requests in the last 24 hours')).toBeInTheDocument();
    expect(within(categories).getByText('1,111')).toBeInTheDocument();
    const series = screen.getByRole('region', { name: 'Allowed and blocked requests' });
    expect(within(series).getByRole('img')).toHaveAccessibleName(
      /Requests per hour\. Allowed: 12,345, Blocked: 1,234/,
    );
    const [overview] = api.calls(telemetryEndpoints.telemetryOverview);
    expect(overview.params.tenant).toBe('acme');
    expect(Date.parse(overview.query.to) - Date.parse(overview.query.from)).toBe(86_400_000);
    const [top] = api.calls(telemetryEndpoints.telemetryTop);
    expect(top.query).toMatchObject({ dimension: 'category', decision: 'block', limit: 5 });

    await user.click(within(categories).getByRole('button', { name: 'Gambling: 1,111 — show the events' }));
    const drawer = await screen.findByRole('dialog', { name: 'Category Gambling: Blocked' });
    expect(await within(drawer).findByText('casino.example')).toBeInTheDocument();
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[0].query).toMatchObject({
      category: 'Gambling',
      decision: 'block',
      from: overview.query.from,
      to: overview.query.to,
    });
    await user.click(within(drawer).getByRole('button', { name: 'Close' }));

    await user.click(within(series).getByRole('button', { name: 'Show the figures as a table' }));
    await user.click(within(series).getByRole('button', { name: /^Allowed at .*: 2,345$/ }));
    await waitFor(() => expect(api.calls(telemetryEndpoints.listDecisionEvents)).toHaveLength(2));
    const start = Date.parse(overview.query.from) + 3_600_000;
    expect(api.calls(telemetryEndpoints.listDecisionEvents)[1].query).toMatchObject({
      decision: 'allow',
      from: new Date(start).toISOString(),
      to: new Date(start + 3_600_000).toISOString(),
    });
    expect(api.unhandled).toEqual([]);
  });

  it('links each tile to the list it counts, as far as the role may see it', async () => {
    const { api } = fakeDashboardApi();
    const { unmount } = setup();
    const linkOf = (tile: string) => within(screen.getByRole('region', { name: tile })).getByRole('link');
    await screen.findByRole('region', { name: 'Users' });
    expect(linkOf('Users')).toHaveAttribute('href', '/users/list');
    // The users list has no connection filter: connected users come first instead, and the link says so.
    expect(linkOf('Connected')).toHaveAttribute('href', '/users/list?sort=connstatus');
    expect(linkOf('Connected')).toHaveTextContent('Show all users, connected first');
    expect(linkOf('XDR')).toHaveTextContent('Show all users');
    expect(linkOf('Administrators')).toHaveAttribute('href', '/users/roles?tab=assignments');
    expect(linkOf('Groups')).toHaveAttribute('href', '/users/groups');
    unmount();

    // A billing administrator sees the counts, not lists it may not open.
    setup(undefined, makeSession({ role: 'billing_admin' }));
    await screen.findByRole('region', { name: 'Users' });
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it("links nowhere on another tenant's dashboard: the lists are the working tenant's", async () => {
    const { summaries } = fakeDashboardApi();
    setup('/main-dashboards/globex/SASEDashboard');
    await screen.findByRole('region', { name: 'Users' });
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(summaries().map((call) => call.params.tenant)).toEqual(['globex']);
  });

  it('uses the tenant named in the path instead of the global view', async () => {
    const { api, summaries } = fakeDashboardApi();
    setup('/main-dashboards/globex/SASEDashboard');
    await screen.findByRole('region', { name: 'Users' });
    expect(summaries()[0].url.pathname).toBe('/api/dashboard/globex/summary');
    expect(api.unhandled).toEqual([]);
  });

  it('shows the XDR tile while the tenant has XDR (dashboard.xdrTile)', async () => {
    fakeDashboardApi();
    setup();
    const xdr = await screen.findByRole('region', { name: 'XDR' });
    expect(within(xdr).getByText('3')).toBeInTheDocument();
  });

  it('leaves the XDR tile out while the tenant has no XDR (dashboard.xdrTile)', async () => {
    const { api } = fakeDashboardApi();
    setup(undefined, makeSession({ features: WITHOUT_XDR }));
    expect(await screen.findByRole('region', { name: 'Internet access' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'XDR' })).not.toBeInTheDocument();
    expect(api.calls(tenantFeatureEndpoints.getTenantFlags)).toHaveLength(0);
  });

  it("reads another tenant's XDR from that tenant's flags, not the working tenant's", async () => {
    const { api } = fakeDashboardApi(undefined, WITHOUT_XDR);
    const { unmount } = setup('/main-dashboards/globex/SASEDashboard');
    expect(await screen.findByRole('region', { name: 'Internet access' })).toBeInTheDocument();
    await waitFor(() => expect(api.calls(tenantFeatureEndpoints.getTenantFlags)).toHaveLength(1));
    expect(api.calls(tenantFeatureEndpoints.getTenantFlags)[0].params.tenant).toBe('globex');
    expect(screen.queryByRole('region', { name: 'XDR' })).not.toBeInTheDocument();
    unmount();

    fakeDashboardApi();
    setup('/main-dashboards/globex/SASEDashboard', makeSession({ features: WITHOUT_XDR }));
    expect(await screen.findByRole('region', { name: 'XDR' })).toBeInTheDocument();
  });

  it('shows an empty state when there is nothing yet', async () => {
    const { api } = fakeDashboardApi(() =>
      summary({
        users: 0,
        connectedUsers: 0,
        privateAccessUsers: 0,
        internetAccessUsers: 0,
        xdrUsers: 0,
        administrators: 0,
        groups: 0,
        recentEvents: [],
      }),
    );
    setup();
    expect(await screen.findByText('Nothing to show yet: add users to see them here.')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('shows the failure with a retry that loads again', async () => {
    // Refused the first time, answered the next.
    const { api, summaries } = fakeDashboardApi(() =>
      summaries().length === 1 ? apiError('forbidden', { message: 'No.' }) : summary(),
    );
    const { user } = setup();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Your role does not allow this.')).toBeInTheDocument();
    expect(summaries()).toHaveLength(1);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Users' })).toBeInTheDocument();
    expect(summaries().map((call) => call.status)).toEqual([403, 200]);
    expect(api.unhandled).toEqual([]);
  });

  it('names every action and object as the event log does, in English and in German', async () => {
    const event = summary().recentEvents[0];
    const recentEvents = [
      { ...event, id: 'e2', action: 'policy.create', objectType: 'policy', objectName: 'Office' },
      { ...event, id: 'e3', action: 'user.bulk.enableXdr', objectType: 'user', objectName: '3 users' },
      {
        ...event,
        id: 'e4',
        action: 'enrolment.key.create',
        objectType: 'deployment_key',
        objectName: 'Laptops',
      },
    ];
    const { api } = fakeDashboardApi(() => summary({ recentEvents }));
    const { unmount } = setup();
    const policy = await screen.findByRole('row', { name: /Office/ });
    expect(within(policy).getByText('Policy created')).toBeInTheDocument();
    expect(within(policy).getByText('Policy')).toBeInTheDocument();
    const bulk = screen.getByRole('row', { name: /XDR turned on for users/ });
    expect(within(bulk).getByText('3 users')).toBeInTheDocument();
    const key = screen.getByRole('row', { name: /Laptops/ });
    expect(within(key).getByText('Deployment key created')).toBeInTheDocument();
    expect(within(key).getByText('Deployment key')).toBeInTheDocument();
    expect(screen.queryByText(/policy\.create|deployment_key/)).not.toBeInTheDocument();
    unmount();

    initTestI18n();
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await i18n.changeLanguage('de');
    setup();
    const germanPolicy = await screen.findByRole('row', { name: /Office/ });
    expect(within(germanPolicy).getByText('Richtlinie erstellt')).toBeInTheDocument();
    expect(within(germanPolicy).getByText('Richtlinie')).toBeInTheDocument();
    const germanBulk = screen.getByRole('row', { name: /XDR für Benutzer eingeschaltet/ });
    expect(within(germanBulk).getByText('3 Benutzer')).toBeInTheDocument();
    expect(
      within(screen.getByRole('row', { name: /Laptops/ })).getByText('Verteilungsschlüssel'),
    ).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });
});
