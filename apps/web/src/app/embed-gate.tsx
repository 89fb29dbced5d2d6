import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useLayoutEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { ErrorState, LoadingState } from '../components/ui/query-state';
import { EMBED_SESSION_QUERY_KEY, useSession } from '../lib/auth';
import {
  enterEmbedView,
  keepEmbedToken,
  leaveEmbedView,
  splitEmbedAddress,
  useEmbedCredential,
} from '../lib/embed-credential';
import { EmbedSignedOut } from './embed-signed-out';

/**
 * In front of the embedded dashboards (spec §2): the view works with its link's embed token, never with the
 * console's session. A token still in the address (the app was already running, or the page was not loaded
 * through main.tsx, which takes it before the router starts) is kept for the tab and removed from the address —
 * so is a legacy `?sid=`, which is never taken — before anything renders. While the view is shown the API client
 * sends the token; leaving the view hands the calls back to the console's session. Without a token, or once the
 * server refused it, the view says why instead of showing a dashboard.
 */
export function EmbedGate() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const address = splitEmbedAddress(location.search);
  const { token, isLost } = useEmbedCredential();
  const { session, isLoading, error, refresh } = useSession();
  const [isEntered, setIsEntered] = useState(false);

  useLayoutEffect(() => {
    if (address.token && keepEmbedToken(address.token)) {
      // Another link's data must not show under this one, even for a moment.
      queryClient.removeQueries({ queryKey: ['tenant'] });
      queryClient.removeQueries({ queryKey: EMBED_SESSION_QUERY_KEY });
    }
    if (address.changed) {
      void navigate(
        { pathname: location.pathname, search: address.search, hash: location.hash },
        { replace: true, state: location.state },
      );
      return;
    }
    enterEmbedView();
    setIsEntered(true);
  }, [
    address.token,
    address.changed,
    address.search,
    location.pathname,
    location.hash,
    location.state,
    navigate,
    queryClient,
  ]);
  useLayoutEffect(() => leaveEmbedView, []);

  if (address.changed || !isEntered) return <LoadingState />;
  if (!token) return <EmbedSignedOut reason="none" />;
  if (isLost) return <EmbedSignedOut reason="ended" />;
  if (isLoading) return <LoadingState />;
  if (session) {
    return (
      <Suspense fallback={<LoadingState />}>
        <Outlet />
      </Suspense>
    );
  }
  if (error) return <ErrorState error={error} onRetry={() => void refresh()} />;
  return <EmbedSignedOut reason="ended" />;
}
