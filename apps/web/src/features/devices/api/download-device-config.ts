import { type DeviceConfigDownload, deviceEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { inventoryKeys } from './inventory-keys';

/**
 * An endpoint's current WireGuard configuration (`POST /api/devices/:tenant/:id/wireguard-config`): the server
 * records it as handed out, so the device is no longer "outdated". The private key is a placeholder in it.
 */
export function downloadDeviceConfig(tenant: string, id: string) {
  return request(deviceEndpoints.downloadDeviceConfig, { params: { tenant, id } });
}

/** Fetches the configuration and refreshes the device and the lists (no longer outdated); a failure toasts. */
export function useDownloadDeviceConfig(
  tenant: string,
  id: string,
  { onSuccess }: { onSuccess?: (download: DeviceConfigDownload) => void } = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: () => downloadDeviceConfig(tenant, id),
    onSuccess: async (download) => {
      onSuccess?.(download);
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.all(tenant) });
    },
    onError: (error) =>
      showMutationError(t, error, {
        title: t('devices.config.failed', 'The configuration could not be fetched'),
      }),
  });
}
