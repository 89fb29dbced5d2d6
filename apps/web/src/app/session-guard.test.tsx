import { SERVED_ROUTES } from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderRoutes } from '../testing/render';
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

const fetchMock = vi.fn<(input: Request) => Promise<Response>>();

describe('SessionGuard', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends a visitor without a session to /sign-in', async () => {
    const { router } = renderRoutes(routes, { route: '/settings' });
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends a partner's user to the partner's sign-in page", async () => {
    localStorage.setItem('partnername', 'netpartner');
    const { router } = renderRoutes(routes, { route: '/settings' });
    expect(await screen.findByText('Sign-in of netpartner')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/netpartner/sign-in');
  });

  it('lets a signed-in user through', async () => {
    renderRoutes(routes, { route: '/settings', session: makeSession() });
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
  });

  it('fetches the stored session and redirects when the server no longer knows it', async () => {
    localStorage.setItem('sessid', 'expired');
    fetchMock.mockResolvedValue(
      jsonResponse({ errcode: 1, code: 'unauthenticated', message: 'No session' }, 401),
    );
    const { router } = renderRoutes(routes, { route: '/settings' });
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    const sent = fetchMock.mock.calls[0][0];
    expect(new URL(sent.url).pathname).toBe('/api/session');
    expect(sent.headers.get('X-Auth-Token')).toBe('expired');
  });

  it('renders once the stored session is confirmed by the server', async () => {
    localStorage.setItem('sessid', 'live');
    fetchMock.mockResolvedValue(jsonResponse(makeSession()));
    renderRoutes(routes, { route: '/settings' });
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
  });

  it('skips the check on paths with a public fragment and for clientAuth sessions', async () => {
    renderRoutes(routes, { route: '/blockaccess/site' });
    expect(await screen.findByText('Block page')).toBeInTheDocument();
  });

  it('skips the check when the session is flagged clientAuth', async () => {
    localStorage.setItem('clientAuth', 'true');
    renderRoutes(routes, { route: '/settings' });
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
  });
});

describe('isPublicRoute', () => {
  it('puts the sign-in, sign-up, verify and network-error screens outside the guard', () => {
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
      '/network-error',
    ]);
  });
});
