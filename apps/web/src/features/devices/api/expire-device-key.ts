import { type DeviceDetail, deviceEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { inventoryKeys } from './inventory-keys';

/** Expires an endpoint's WireGuard key now (`POST /api/devices/:tenant/:id/expire-key`). */
export function expireDeviceKey(tenant: string, id: string) {
  return request(deviceEndpoints.expireDeviceKey, { params: { tenant, id } });
}

/** Expires the key, puts the answer into the detail cache and refreshes the lists; a failure toasts. */
export function useExpireDeviceKey(
  tenant: string,
  id: string,
  { onSuccess }: { onSuccess?: (device: DeviceDetail) => void } = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: () => expireDeviceKey(tenant, id),
    onSuccess: async (device) => {
      queryClient.setQueryData(inventoryKeys.detail(tenant, id), device);
      onSuccess?.(device);
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.lists(tenant) });
    },
    onError: (error) =>
      showMutationError(t, error, { title: t('devices.detail.expireKey.failed', 'The key was not expired') }),
  });
}
