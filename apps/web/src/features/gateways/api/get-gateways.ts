import { gatewayEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { fetchListPage } from '../../../lib/list-state';
import { GATEWAYS_LIVE_REFRESH_MS, type GatewaysListParams, gatewaysKeys } from './gateways-keys';

/** One page of a tenant's cybernodes and site gateways (`GET /api/cybernodes/:tenant`). */
export function getGateways(tenant: string, query: GatewaysListParams, signal?: AbortSignal, silent = false) {
  return request(gatewayEndpoints.listGateways, { params: { tenant }, query, signal, silent });
}

/**
 * Query options of a gateways page. Live: refetched every heartbeat while the tab is visible (TanStack pauses
 * the interval in a background tab). The previous page stays on screen while the next one loads; silent, the
 * list shows a failure in place with a retry.
 */
export function gatewaysQueryOptions(tenant: string, query: GatewaysListParams) {
  return queryOptions({
    queryKey: gatewaysKeys.list(tenant, query),
    queryFn: ({ client, queryKey, signal }) => {
      // A refresh of what is on screen is background work: it does not move the progress bar.
      const isRefresh = client.getQueryData(queryKey) !== undefined;
      return fetchListPage(client, gatewaysKeys.lists(tenant), query, (q) =>
        getGateways(tenant, q, signal, isRefresh),
      );
    },
    placeholderData: keepPreviousData,
    refetchInterval: GATEWAYS_LIVE_REFRESH_MS,
    refetchIntervalInBackground: false,
    meta: { isSilent: true },
  });
}

/** A live page of gateways with its total. */
export function useGateways(tenant: string, query: GatewaysListParams) {
  return useQuery(gatewaysQueryOptions(tenant, query));
}
