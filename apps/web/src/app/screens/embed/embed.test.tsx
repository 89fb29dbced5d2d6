import { sessionEndpoints, telemetryEndpoints } from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeDashboardsApi } from '../../../features/dashboards/testing/fixtures';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { buildRoutes } from '../../router';

/** The first screen of a file loads its lazy chunks cold: more than findBy's second on a busy machine. */
const LOADED = { timeout: 10_000 };

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('an embedded dashboard', () => {
  it('takes the link’s session id as the session, strips it from the address and shows only the dashboard', async () => {
    const api = fakeDashboardsApi().on(sessionEndpoints.getSession, () => makeSession());
    const { router } = renderRoutes(buildRoutes(), { route: '/embed/spa/acme?range=7d&sid=embedded-sid' });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Secure private access' }, LOADED),
    ).toBeInTheDocument();
    expect(localStorage.getItem('sessid')).toBe('embedded-sid');
    expect(router.state.location.pathname).toBe('/embed/spa/acme');
    expect(router.state.location.search).toBe('?range=7d');
    // The dashboard itself, its heading a level down, without its share button.
    expect(await screen.findByRole('table', { name: 'Private access per site' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Secure private access' })).toBeInTheDocument();
    expect(screen.getByText('Tenant: Acme Corp')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Embed' })).toBeNull();
    // No shell: no navigation, no top bar, no skip link.
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Skip to main content' })).toBeNull();
    expect(screen.getAllByRole('main')).toHaveLength(1);

    // The API is asked with the link's session.
    const [session] = api.calls(sessionEndpoints.getSession);
    expect(session.headers.get('X-Auth-Token')).toBe('embedded-sid');
    const [summary] = api.calls(telemetryEndpoints.privateAccessSummary);
    expect(summary.params.tenant).toBe('acme');
    expect(summary.headers.get('X-Auth-Token')).toBe('embedded-sid');
    expect(api.unhandled).toEqual([]);
  });

  it('replaces another stored session with the link’s', async () => {
    localStorage.setItem('sessid', 'someone-else');
    localStorage.setItem('tenant', 'globex');
    const api = fakeDashboardsApi().on(sessionEndpoints.getSession, ({ headers }) =>
      headers.get('X-Auth-Token') === 'embedded-sid' ? makeSession() : makeSession({ tenant: 'globex' }),
    );
    const { router } = renderRoutes(buildRoutes(), { route: '/embed/diagnostics/acme?sid=embedded-sid' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Diagnostics: traffic analytics' }, LOADED),
    ).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(localStorage.getItem('sessid')).toBe('embedded-sid');
    expect(localStorage.getItem('tenant')).toBeNull();
    await screen.findByRole('heading', { level: 2, name: 'Traffic analytics' });
    const overview = api.calls(telemetryEndpoints.telemetryOverview);
    expect(overview.length).toBeGreaterThan(0);
    expect(overview.every((call) => call.headers.get('X-Auth-Token') === 'embedded-sid')).toBe(true);
  });

  it('says it needs a session when there is none, instead of the console', async () => {
    const api = fakeApi();
    const { router } = renderRoutes(buildRoutes(), { route: '/embed/global' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This dashboard needs a session' }, LOADED),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
    expect(router.state.location.pathname).toBe('/embed/global');
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(api.requests).toEqual([]);
  });

  it('refuses a tenant the session cannot work in', async () => {
    const api = fakeDashboardsApi();
    renderRoutes(buildRoutes(), { route: '/embed/intrusion-detection/globex', session: makeSession() });
    expect(
      await screen.findByText(
        'This dashboard shows the tenant “globex”, which this session cannot open.',
        {},
        LOADED,
      ),
    ).toBeInTheDocument();
    expect(api.calls(telemetryEndpoints.telemetryOverview)).toEqual([]);
  });

  it('lists what the policy blocked for incident response, from the decision list', async () => {
    const api = fakeDashboardsApi();
    renderRoutes(buildRoutes(), { route: '/embed/incident-response/acme', session: makeSession() });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Blocked requests' }, LOADED),
    ).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Blocked requests' })).toBeInTheDocument();
    const [call] = api.calls(telemetryEndpoints.listDecisionEvents);
    expect(call.params.tenant).toBe('acme');
    expect(call.query.decision).toBe('block');
  });

  it('searches the decisions by destination', async () => {
    const api = fakeDashboardsApi();
    const { user, router } = renderRoutes(buildRoutes(), {
      route: '/embed/ai-search/acme',
      session: makeSession(),
    });
    const box = await screen.findByRole('textbox', { name: /Destination/ }, LOADED);
    expect(api.calls(telemetryEndpoints.listDecisionEvents)).toEqual([]);
    await user.type(box, ' Example.COM ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('table', { name: 'Decisions for example.com' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?destination=example.com');
    const [call] = api.calls(telemetryEndpoints.listDecisionEvents);
    expect(call.query.destination).toBe('example.com');
  });

  it('shows one user’s decisions on the per-user dashboard', async () => {
    const userId = '0a1b2c3d-0000-4000-8000-000000000001';
    const api = fakeDashboardsApi();
    renderRoutes(buildRoutes(), {
      route: `/embed/user-tag/acme/${userId}/Ann%20Archer`,
      session: makeSession(),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'User dashboard: Ann Archer' }, LOADED),
    ).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Requests of Ann Archer' })).toBeInTheDocument();
    const [call] = api.calls(telemetryEndpoints.listDecisionEvents);
    expect(call.query.userId).toBe(userId);
  });
});
