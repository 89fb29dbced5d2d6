import { deviceEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api-client';
import { DEVICES_LIVE_REFRESH_MS, inventoryKeys } from './inventory-keys';

/** One device with its history, tunnel and policies (`GET /api/devices/:tenant/:id`). */
export function getDevice(tenant: string, id: string, signal?: AbortSignal, silent = false) {
  return request(deviceEndpoints.getDeviceDetail, { params: { tenant, id }, signal, silent });
}

/** True when a device look-up failed because there is no such device (unknown id, or not an id at all). */
export function isDeviceMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/**
 * Query options of one device, refetched every {@link DEVICES_LIVE_REFRESH_MS} while the tab is visible, so its
 * status follows the device. Silent: the screen shows "Device not found" or the failure in place. A missing device
 * is not asked for again and again.
 */
export function deviceQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: inventoryKeys.detail(tenant, id),
    queryFn: ({ client, queryKey, signal }) =>
      getDevice(tenant, id, signal, client.getQueryData(queryKey) !== undefined),
    refetchInterval: (query) => (isDeviceMissing(query.state.error) ? false : DEVICES_LIVE_REFRESH_MS),
    refetchIntervalInBackground: false,
    meta: { isSilent: true },
  });
}

/** One device by id; not asked for while `isEnabled` is false (not an id at all). */
export function useDevice(tenant: string, id: string, isEnabled = true) {
  return useQuery({ ...deviceQueryOptions(tenant, id), enabled: isEnabled });
}
