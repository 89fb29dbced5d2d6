import { SERVED_ROUTES, sessionEndpoints } from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeApi, fakeApi } from '../testing/fake-api';
import { makeSession, renderRoutes } from '../testing/render';
import { isPublicRoute } from './routes';
import { SessionGuard } from './session-guard';

function PartnerSignIn() {
  return <p>Sign-in of {useParams().partner}</p>;
}

const routes = [
  { path: '/sign-in', element: <p>Sign-in page</p> },
  { path: '/:partner/sign-in', element: <PartnerSignIn /> },
  {
    element: <SessionGuard />,
    children: [
      { path: '/settings', element: <p>Settings page</p> },
      { path: '/blockaccess/:type', element: <p>Block page</p> },
    ],
  },
];

describe('SessionGuard', () => {
  /** No handlers: a test that expects a request registers it; any other request is unhandled. */
  let api: FakeApi;
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    api = fakeApi();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends a visitor without a session to /sign-in', async () => {
    const { router } = renderRoutes(routes, { route: '/settings' });
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(api.requests).toEqual([]);
  });

  it("sends a partner's user to the partner's sign-in page", async () => {
    localStorage.setItem('partnername', 'netpartner');
    const { router } = renderRoutes(routes, { route: '/settings' });
    expect(await screen.findByText('Sign-in of netpartner')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/netpartner/sign-in');
    expect(api.requests).toEqual([]);
  });

  it('lets a signed-in user through', async () => {
    renderRoutes(routes, { route: '/settings', session: makeSession() });
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
    // The session given is fresh: no check of it yet.
    expect(api.requests).toEqual([]);
  });

  it('fetches the stored session and redirects when the server no longer knows it', async () => {
    localStorage.setItem('sessid', 'expired');
    api.on(sessionEndpoints.getSession, () => apiError('unauthenticated', { message: 'No session' }));
    const { router } = renderRoutes(routes, { route: '/settings' });
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(api.requests).toHaveLength(1);
    const [sent] = api.calls(sessionEndpoints.getSession);
    expect(sent.url.pathname).toBe('/api/session');
    expect(sent.status).toBe(401);
    expect(sent.headers.get('X-Auth-Token')).toBe('expired');
  });

  it('renders once the stored session is confirmed by the server', async () => {
    localStorage.setItem('sessid', 'live');
    api.on(sessionEndpoints.getSession, () => makeSession());
    renderRoutes(routes, { route: '/settings' });
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
    const [sent] = api.calls(sessionEndpoints.getSession);
    expect(sent.headers.get('X-Auth-Token')).toBe('live');
    expect(api.unhandled).toEqual([]);
  });

  it('skips the check on paths with a public fragment and for clientAuth sessions', async () => {
    renderRoutes(routes, { route: '/blockaccess/site' });
    expect(await screen.findByText('Block page')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('skips the check when the session is flagged clientAuth', async () => {
    localStorage.setItem('clientAuth', 'true');
    renderRoutes(routes, { route: '/settings' });
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });
});

describe('isPublicRoute', () => {
  it('puts the sign-in, sign-up, verify, network-error and block-page screens outside the guard', () => {
    expect(SERVED_ROUTES.filter(isPublicRoute)).toEqual([
      '/sign-in',
      '/:partner/sign-in',
      '/ntgr-signout',
      '/sign-up',
      '/email-verification',
      '/sso-verify',
      '/verify/email-verification',
      '/verify/otp-verification',
      '/verify/:id',
      '/verify/wg/:id',
      '/verify/report-recipient/:id',
      '/network-error',
      '/blockaccess',
      '/blockaccess/:type',
      '/blockaccess/:type/:id',
    ]);
  });
});
