import { skipsSessionCheck } from '@palisade/contracts';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ErrorState, LoadingState } from '../components/ui/query-state';
import { useSession, useSignInRedirectPath } from '../lib/auth';
import { getSessionId, isClientAuth } from '../lib/session-store';

/** Props of {@link SessionGuard}. */
export interface SessionGuardProps {
  /** Shown instead of the redirect to sign-in when there is no session (the embedded dashboards' message). */
  signedOut?: ReactNode;
}

/**
 * Lets the signed-in through (spec §2): no stored session id, or a session the server no longer knows, goes
 * to `/sign-in` (the partner's sign-in page when a partner name is stored), or shows `signedOut` when given.
 * Paths with a public fragment and sessions flagged clientAuth skip the check.
 */
export function SessionGuard({ signedOut }: SessionGuardProps = {}) {
  const location = useLocation();
  const { session, isLoading, error, refresh } = useSession();
  const signInRedirectPath = useSignInRedirectPath();
  if (skipsSessionCheck(location.pathname, isClientAuth())) return <Outlet />;
  const redirect = signedOut ?? <Navigate to={signInRedirectPath} replace state={{ from: location }} />;
  if (!getSessionId()) return redirect;
  if (isLoading) return <LoadingState />;
  if (session) return <Outlet />;
  // A failure other than "no session" (offline, 5xx) is not a reason to sign the user out.
  if (error) return <ErrorState error={error} onRetry={() => void refresh()} />;
  return redirect;
}
