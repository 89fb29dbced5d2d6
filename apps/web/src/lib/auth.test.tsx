import { sessionEndpoints, systemEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { Navigate, useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionGuard } from '../app/session-guard';
import { fakeApi } from '../testing/fake-api';
import { makeSession, renderRoutes } from '../testing/render';
import { useCan, useSession, useSetWorkingTenant, useWorkingTenant } from './auth';

/** Like the real sign-in screen: a signed-in visitor is sent on. */
function SignIn() {
  const { session } = useSession();
  const { partner } = useParams();
  if (session) return <Navigate to="/settings" replace />;
  return <p>Sign-in page {partner ?? ''}</p>;
}

function Home() {
  const { session, signOut } = useSession();
  const tenant = useWorkingTenant();
  const setTenant = useSetWorkingTenant();
  return (
    <div>
      <p>Signed in as {session?.username}</p>
      <p>Working on {tenant}</p>
      <button type="button" onClick={() => setTenant('globex')}>
        Switch
      </button>
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}

const routes = [
  { path: '/sign-in', element: <SignIn /> },
  { path: '/:partner/sign-in', element: <SignIn /> },
  { path: '/ntgr-signout', element: <p>Signed out page</p> },
  { element: <SessionGuard />, children: [{ path: '/settings', element: <Home /> }] },
];

/** The fake API of signing out: the public settings (with the partners signed out to their own page) and sign-out. */
function fakeSignOutApi(signOutPartners: string[]) {
  return fakeApi()
    .on(systemEndpoints.publicConfig, () => ({
      signOutPartners,
      posthogKey: null,
      posthogHost: null,
      dashboardBaseUrl: null,
    }))
    .on(sessionEndpoints.signOut, () => ({ ok: true as const }));
}

describe('useSession', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('signs out on the server and here, then shows the sign-in page', async () => {
    const api = fakeSignOutApi([]);
    const { user, router, queryClient } = renderRoutes(routes, {
      route: '/settings',
      session: makeSession(),
    });
    localStorage.setItem('target', 'tenant:globex,partner:northwind,wsEditAllowed:true,true');
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText(/Sign-in page/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(localStorage.getItem('sessid')).toBeNull();
    expect(localStorage.getItem('target')).toBeNull();
    expect(queryClient.getQueryData(['session'])).toBeNull();
    const [deleted] = api.calls(sessionEndpoints.signOut);
    expect(deleted?.headers.get('X-Auth-Token')).toBe('test-session');
    expect(api.unhandled).toEqual([]);
  });

  it("sends a partner's user to the partner's sign-in page", async () => {
    fakeSignOutApi(['othernet']);
    const { user, router } = renderRoutes(routes, {
      route: '/settings',
      session: makeSession({ partnername: 'northwind' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Sign-in page northwind')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/northwind/sign-in');
  });

  it('sends users of a listed partner to /ntgr-signout', async () => {
    fakeSignOutApi(['northwind']);
    const { user, router } = renderRoutes(routes, {
      route: '/settings',
      session: makeSession({ partnername: 'northwind' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Signed out page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/ntgr-signout');
  });

  it('works on the session tenant by default and switches only to a managed tenant', async () => {
    fakeSignOutApi([]);
    const { user } = renderRoutes(routes, {
      route: '/settings',
      session: makeSession({ managedTenants: ['globex'] }),
    });
    expect(await screen.findByText('Working on acme')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Switch' }));
    expect(await screen.findByText('Working on globex')).toBeInTheDocument();
    expect(localStorage.getItem('tenant')).toBe('globex');
  });

  it('answers useCan from the session permissions, so a custom role counts as much as a built-in one', async () => {
    fakeSignOutApi([]);
    function Rights() {
      const canView = useCan('users:view');
      const canCreate = useCan('users:create');
      return <p>{`view ${canView}, create ${canCreate}`}</p>;
    }
    renderRoutes([{ path: '/', element: <Rights /> }], {
      session: makeSession({ role: 'custom', customRoleName: 'Readers', permissions: ['users:view'] }),
    });
    expect(await screen.findByText('view true, create false')).toBeInTheDocument();
  });

  it('ignores a stored tenant the session may not manage', async () => {
    fakeSignOutApi([]);
    localStorage.setItem('tenant', 'stranger');
    renderRoutes(routes, { route: '/settings', session: { ...makeSession(), managedTenants: [] } });
    // saveSession (by the render helper) stores the session tenant; put the stranger back before reading.
    await waitFor(() => expect(screen.getByText(/Working on/)).toBeInTheDocument());
    expect(screen.getByText('Working on acme')).toBeInTheDocument();
  });
});
