import { deviceEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { fetchListPage } from '../../../lib/list-state';
import { DEVICES_LIVE_REFRESH_MS, type DevicesListParams, inventoryKeys } from './inventory-keys';

/** One page of the tenant's endpoints and site gateways (`GET /api/devices/:tenant`). */
export function getDevices(tenant: string, query: DevicesListParams, signal?: AbortSignal, silent = false) {
  return request(deviceEndpoints.listDevices, { params: { tenant }, query, signal, silent });
}

/**
 * Query options of a device page. Live: refetched every {@link DEVICES_LIVE_REFRESH_MS} while the tab is visible
 * (TanStack pauses the interval in a background tab). The previous page stays on screen while the next one loads;
 * silent, the list shows a failure in place with a retry.
 */
export function devicesQueryOptions(tenant: string, query: DevicesListParams) {
  return queryOptions({
    queryKey: inventoryKeys.list(tenant, query),
    queryFn: ({ client, queryKey, signal }) => {
      // A refresh of what is on screen is background work: it does not move the progress bar.
      const isRefresh = client.getQueryData(queryKey) !== undefined;
      return fetchListPage(client, inventoryKeys.lists(tenant), query, (q) =>
        getDevices(tenant, q, signal, isRefresh),
      );
    },
    placeholderData: keepPreviousData,
    refetchInterval: DEVICES_LIVE_REFRESH_MS,
    refetchIntervalInBackground: false,
    meta: { isSilent: true },
  });
}

/** A live page of devices with its total. */
export function useDevices(tenant: string, query: DevicesListParams) {
  return useQuery(devicesQueryOptions(tenant, query));
}
