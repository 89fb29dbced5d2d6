import { useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { LoadingState } from '../components/ui/query-state';
import { SESSION_QUERY_KEY } from '../lib/auth';
import { adoptSessionId, sessionIdIn, withoutSessionId } from '../lib/embed-session';

/**
 * In front of the embedded dashboards (spec §2): an address that still carries `?sid=` (the app was already
 * running, or the page was not loaded through main.tsx, which takes it before the router starts) has the id
 * stored as the session and removed from the address before anything else renders; the session is then fetched
 * for the new id, other data of the old one dropped.
 */
export function EmbedSessionGate() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sessionId = sessionIdIn(location.search);

  useLayoutEffect(() => {
    if (!sessionId) return;
    if (adoptSessionId(sessionId)) {
      queryClient.removeQueries({ queryKey: ['tenant'] });
      void queryClient.resetQueries({ queryKey: SESSION_QUERY_KEY });
    }
    void navigate(
      { pathname: location.pathname, search: withoutSessionId(location.search), hash: location.hash },
      { replace: true, state: location.state },
    );
  }, [sessionId, location.pathname, location.search, location.hash, location.state, navigate, queryClient]);

  if (sessionId) return <LoadingState />;
  return <Outlet />;
}
