import { gatewayEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api-client';
import { GATEWAYS_LIVE_REFRESH_MS, gatewaysKeys } from './gateways-keys';

/** One gateway with its live state (`GET /api/cybernodes/:tenant/:id`). */
export function getGateway(tenant: string, id: string, signal?: AbortSignal, silent = false) {
  return request(gatewayEndpoints.getGateway, { params: { tenant, id }, signal, silent });
}

/** The gateway does not exist (404), or the id is not one (400): asking again will not change that. */
const isMissing = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

/**
 * Query options of one gateway, refetched every heartbeat while the tab is visible. Silent: the screen shows
 * "Gateway not found" or the failure in place. A missing gateway is not asked for again and again.
 */
export function gatewayQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: gatewaysKeys.detail(tenant, id),
    // A refresh of what is on screen is background work: it does not move the progress bar.
    queryFn: ({ client, queryKey, signal }) =>
      getGateway(tenant, id, signal, client.getQueryData(queryKey) !== undefined),
    refetchInterval: (query) => (isMissing(query.state.error) ? false : GATEWAYS_LIVE_REFRESH_MS),
    refetchIntervalInBackground: false,
    meta: { isSilent: true },
  });
}

/** One gateway by id; not asked for while `isEnabled` is false (no id, or not an id at all). */
export function useGateway(tenant: string, id: string, isEnabled = true) {
  return useQuery({ ...gatewayQueryOptions(tenant, id), enabled: isEnabled });
}
