import { type DeviceDetail, type DeviceUpdate, deviceEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { inventoryKeys } from './inventory-keys';

/** Renames an endpoint (`PUT /api/devices/:tenant/:id`). */
export function updateDevice(tenant: string, id: string, body: DeviceUpdate) {
  return request(deviceEndpoints.updateDevice, { params: { tenant, id }, body });
}

/** Options of {@link useUpdateDevice}. */
export interface UseUpdateDeviceOptions {
  onSuccess?: (device: DeviceDetail) => void;
  /** The form shows field errors itself and toasts the rest. */
  onError?: (error: unknown) => void;
}

/** Renames a device, puts the answer into its detail cache and refreshes the lists. */
export function useUpdateDevice(
  tenant: string,
  id: string,
  { onSuccess, onError }: UseUpdateDeviceOptions = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: DeviceUpdate) => updateDevice(tenant, id, body),
    onSuccess: async (device) => {
      queryClient.setQueryData(inventoryKeys.detail(tenant, id), device);
      onSuccess?.(device);
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.lists(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}
