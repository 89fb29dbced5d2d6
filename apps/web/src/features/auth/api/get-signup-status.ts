import { sessionEndpoints, type TransStatus } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api-client';

/** How often "check your inbox" asks whether the address was verified, while the tab is visible. */
export const SIGNUP_STATUS_POLL_MS = 5000;

/**
 * How a sign-up stands (`GET /api/trans/status/web/:transid`), by the id the sign-up answered. It only reads:
 * the secret that verifies travels in the e-mail. Polling is background work, so it is not a call in progress.
 */
export function getSignupStatus(transid: string, signal?: AbortSignal): Promise<TransStatus> {
  return request(sessionEndpoints.transStatus, { params: { transid }, signal, silent: true });
}

/**
 * The `refetchInterval` of the status: every {@link SIGNUP_STATUS_POLL_MS} until the sign-up is completed or
 * expired, or the id turns out unknown (a 4xx: it was replaced by a new sign-up, or never existed).
 */
export function signupStatusInterval(state: { data?: TransStatus; error: unknown }): number | false {
  if (state.data && state.data.transstatus !== 'pending') return false;
  if (state.error instanceof ApiError && state.error.status < 500) return false;
  return SIGNUP_STATUS_POLL_MS;
}

/** Query options of a sign-up's status: polled while the tab is visible; silent, the screen shows the outcome. */
export function signupStatusQueryOptions(transid: string) {
  return queryOptions({
    queryKey: ['signup-status', transid],
    queryFn: ({ signal }) => getSignupStatus(transid, signal),
    refetchInterval: (query) => signupStatusInterval(query.state),
    refetchIntervalInBackground: false,
    meta: { isSilent: true },
  });
}

/** A sign-up's status, polled until it settles; disabled without an id (an address typed in by hand). */
export function useSignupStatus(transid: string | undefined) {
  return useQuery({ ...signupStatusQueryOptions(transid ?? ''), enabled: Boolean(transid) });
}
