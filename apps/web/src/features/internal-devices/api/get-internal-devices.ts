import { internalDeviceEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { fetchListPage } from '../../../lib/list-state';
import {
  INTERNAL_DEVICES_REFRESH_MS,
  type InternalDevicesListParams,
  internalDevicesKeys,
} from './internal-devices-keys';

/** One page of the hosts seen behind the tenant's site gateways (`GET /api/devices/:tenant/internal-devices`). */
export function getInternalDevices(
  tenant: string,
  query: InternalDevicesListParams,
  signal?: AbortSignal,
  silent = false,
) {
  return request(internalDeviceEndpoints.listInternalDevices, { params: { tenant }, query, signal, silent });
}

/**
 * Query options of a page. Live: refetched every {@link INTERNAL_DEVICES_REFRESH_MS} while the tab is visible
 * (TanStack pauses the interval in a background tab). The previous page stays on screen while the next one loads;
 * silent, the list shows a failure in place with a retry.
 */
export function internalDevicesQueryOptions(tenant: string, query: InternalDevicesListParams) {
  return queryOptions({
    queryKey: internalDevicesKeys.list(tenant, query),
    queryFn: ({ client, queryKey, signal }) => {
      // A refresh of what is on screen is background work: it does not move the progress bar.
      const isRefresh = client.getQueryData(queryKey) !== undefined;
      return fetchListPage(client, internalDevicesKeys.lists(tenant), query, (q) =>
        getInternalDevices(tenant, q, signal, isRefresh),
      );
    },
    placeholderData: keepPreviousData,
    refetchInterval: INTERNAL_DEVICES_REFRESH_MS,
    refetchIntervalInBackground: false,
    meta: { isSilent: true },
  });
}

/** A live page of internal devices with its total. */
export function useInternalDevices(tenant: string, query: InternalDevicesListParams) {
  return useQuery(internalDevicesQueryOptions(tenant, query));
}
