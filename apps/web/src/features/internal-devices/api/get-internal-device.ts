import { internalDeviceEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api-client';
import { INTERNAL_DEVICES_REFRESH_MS, internalDevicesKeys } from './internal-devices-keys';

/** One host seen behind a site gateway (`GET /api/devices/:tenant/internal-devices/:id`). */
export function getInternalDevice(tenant: string, id: string, signal?: AbortSignal, silent = false) {
  return request(internalDeviceEndpoints.getInternalDevice, { params: { tenant, id }, signal, silent });
}

/** True when a look-up failed because there is no such host (unknown id, or not an id at all). */
export function isInternalDeviceMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/**
 * Query options of one host, refetched every {@link INTERNAL_DEVICES_REFRESH_MS} while the tab is visible, so
 * "last seen" follows the gateway's reports. Silent: the screen shows "not found" or the failure in place; a
 * missing host is not asked for again and again.
 */
export function internalDeviceQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: internalDevicesKeys.detail(tenant, id),
    queryFn: ({ client, queryKey, signal }) =>
      getInternalDevice(tenant, id, signal, client.getQueryData(queryKey) !== undefined),
    refetchInterval: (query) =>
      isInternalDeviceMissing(query.state.error) ? false : INTERNAL_DEVICES_REFRESH_MS,
    refetchIntervalInBackground: false,
    meta: { isSilent: true },
  });
}

/** One host by id; not asked for while `isEnabled` is false (not an id at all). */
export function useInternalDevice(tenant: string, id: string, isEnabled = true) {
  return useQuery({ ...internalDeviceQueryOptions(tenant, id), enabled: isEnabled });
}
