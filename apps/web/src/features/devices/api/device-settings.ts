import { type DeviceSettings, deviceEndpoints } from '@palisade/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { inventoryKeys } from './inventory-keys';

/** The tenant's device rules (`GET /api/devices/:tenant/settings`). */
export function getDeviceSettings(tenant: string, signal?: AbortSignal) {
  return request(deviceEndpoints.getDeviceSettings, { params: { tenant }, signal });
}

/** Query options of the device rules; silent, the dialog shows a failure in place. */
export function deviceSettingsQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: inventoryKeys.settings(tenant),
    queryFn: ({ signal }) => getDeviceSettings(tenant, signal),
    meta: { isSilent: true },
  });
}

export function useDeviceSettings(tenant: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...deviceSettingsQueryOptions(tenant), enabled });
}

/** Changes the tenant's device rules (`PUT /api/devices/:tenant/settings`). */
export function updateDeviceSettings(tenant: string, body: DeviceSettings) {
  return request(deviceEndpoints.updateDeviceSettings, { params: { tenant }, body });
}

/** Saves the rules and keeps the answer as the rules; the dialog handles success and failure. */
export function useUpdateDeviceSettings(
  tenant: string,
  {
    onSuccess,
    onError,
  }: { onSuccess?: (settings: DeviceSettings) => void; onError?: (error: unknown) => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: DeviceSettings) => updateDeviceSettings(tenant, body),
    onSuccess: (settings) => {
      queryClient.setQueryData(inventoryKeys.settings(tenant), settings);
      onSuccess?.(settings);
    },
    onError: (error) => onError?.(error),
  });
}
