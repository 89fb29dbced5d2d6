import {
  type EmbedSession,
  embedLinkEndpoints,
  sessionEndpoints,
  telemetryEndpoints,
} from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeDashboardsApi } from '../../../features/dashboards/testing/fixtures';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { renderRoutes } from '../../../testing/render';
import { buildRoutes } from '../../router';

/** The first screen of a file loads its lazy chunks cold: more than findBy's second on a busy machine. */
const LOADED = { timeout: 10_000 };
const TOKEN = `emb_${'a'.repeat(43)}`;

/** What `GET /api/embed/session` answers for a link of acme. */
function embedSession(overrides: Partial<EmbedSession> = {}): EmbedSession {
  return {
    linkId: '0a1b2c3d-0000-4000-8000-0000000000e1',
    name: 'Wall screen',
    tenant: 'acme',
    tenantDisplayName: 'Acme Corp',
    tenantKind: 'customer',
    kinds: ['spa'],
    userId: null,
    permissions: ['dashboard:view', 'events:view'],
    features: ['webFilter'],
    tenantTheme: 'dark',
    tenantPalette: 'classic',
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    ...overrides,
  };
}

/** The fake API with the dashboards and the link's session, answered only for the link's token. */
function linkApi(session = embedSession()) {
  return fakeDashboardsApi().on(embedLinkEndpoints.embedSession, ({ headers }) =>
    headers.get('Authorization') === `Bearer ${TOKEN}` ? session : apiError('unauthenticated'),
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('an embedded dashboard', () => {
  it('works with its link’s token (kept for the tab, gone from the address), and shows only the dashboard', async () => {
    const api = linkApi();
    const { router } = renderRoutes(buildRoutes(), { route: `/embed/spa/acme?range=7d&token=${TOKEN}` });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Secure private access' }, LOADED),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/embed/spa/acme');
    expect(router.state.location.search).toBe('?range=7d');
    // Never stored as a session.
    expect(sessionStorage.getItem('embedToken')).toBe(TOKEN);
    expect(localStorage.getItem('sessid')).toBeNull();
    expect(sessionStorage.getItem('sessid')).toBeNull();
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

    // Every call carries the link's token, none a session.
    const [summary] = api.calls(telemetryEndpoints.privateAccessSummary);
    expect(summary.params.tenant).toBe('acme');
    expect(summary.headers.get('Authorization')).toBe(`Bearer ${TOKEN}`);
    expect(summary.headers.get('X-Auth-Token')).toBeNull();
    expect(api.calls(sessionEndpoints.getSession)).toEqual([]);
    expect(api.unhandled).toEqual([]);
  });

  it('leaves the console’s own session alone: it is neither replaced nor sent', async () => {
    localStorage.setItem('sessid', 'my-own-session');
    localStorage.setItem('tenant', 'globex');
    const api = linkApi(embedSession({ kinds: ['diagnostics'] }));
    const { router } = renderRoutes(buildRoutes(), { route: `/embed/diagnostics/acme?token=${TOKEN}` });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Diagnostics: traffic analytics' }, LOADED),
    ).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(localStorage.getItem('sessid')).toBe('my-own-session');
    expect(localStorage.getItem('tenant')).toBe('globex');
    await screen.findByRole('heading', { level: 2, name: 'Traffic analytics' });
    const overview = api.calls(telemetryEndpoints.telemetryOverview);
    expect(overview.length).toBeGreaterThan(0);
    expect(overview.every((call) => call.headers.get('X-Auth-Token') === null)).toBe(true);
    expect(overview.every((call) => call.headers.get('Authorization') === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('never takes an old link’s ?sid= as the session (a link cannot sign anybody in)', async () => {
    localStorage.setItem('sessid', 'my-own-session');
    const api = fakeApi();
    const { router } = renderRoutes(buildRoutes(), { route: '/embed/global?sid=attackers-session' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This dashboard needs its link' }, LOADED),
    ).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(localStorage.getItem('sessid')).toBe('my-own-session');
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toContain('attackers-session');
    expect(api.requests.filter((call) => call.url.pathname !== '/api/session')).toEqual([]);
  });

  it('says it needs its link when there is none, instead of the console', async () => {
    const api = fakeApi();
    const { router } = renderRoutes(buildRoutes(), { route: '/embed/global' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This dashboard needs its link' }, LOADED),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/embed/global');
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(api.requests).toEqual([]);
  });

  it('says the link has ended when the server refuses it, and keeps the console signed in', async () => {
    localStorage.setItem('sessid', 'my-own-session');
    fakeDashboardsApi().on(embedLinkEndpoints.embedSession, () => apiError('unauthenticated'));
    const { router } = renderRoutes(buildRoutes(), { route: `/embed/spa/acme?token=${TOKEN}` });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link has ended' }, LOADED),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/embed/spa/acme');
    expect(localStorage.getItem('sessid')).toBe('my-own-session');
  });

  it('refuses a tenant the link does not open', async () => {
    const api = linkApi(embedSession({ kinds: ['intrusion-detection'] }));
    renderRoutes(buildRoutes(), { route: `/embed/intrusion-detection/globex?token=${TOKEN}` });
    expect(
      await screen.findByText(
        'This dashboard shows the tenant “globex”, which this link does not open.',
        {},
        LOADED,
      ),
    ).toBeInTheDocument();
    expect(api.calls(telemetryEndpoints.telemetryOverview)).toEqual([]);
  });

  it('lists what the policy blocked for incident response, from the decision list', async () => {
    const api = linkApi(embedSession({ kinds: ['incident-response'] }));
    renderRoutes(buildRoutes(), { route: `/embed/incident-response/acme?token=${TOKEN}` });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Blocked requests' }, LOADED),
    ).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Blocked requests' })).toBeInTheDocument();
    const [call] = api.calls(telemetryEndpoints.listDecisionEvents);
    expect(call.params.tenant).toBe('acme');
    expect(call.query.decision).toBe('block');
  });

  it('searches the decisions by destination', async () => {
    const api = linkApi(embedSession({ kinds: ['ai-search'] }));
    const { user, router } = renderRoutes(buildRoutes(), { route: `/embed/ai-search/acme?token=${TOKEN}` });
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
    const api = linkApi(embedSession({ kinds: ['user-tag'], userId }));
    renderRoutes(buildRoutes(), { route: `/embed/user-tag/acme/${userId}/Ann%20Archer?token=${TOKEN}` });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'User dashboard: Ann Archer' }, LOADED),
    ).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Requests of Ann Archer' })).toBeInTheDocument();
    const [call] = api.calls(telemetryEndpoints.listDecisionEvents);
    expect(call.query.userId).toBe(userId);
  });
});
