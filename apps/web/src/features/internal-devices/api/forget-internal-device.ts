import { internalDeviceEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { internalDevicesKeys } from './internal-devices-keys';

/** Forgets a host (`DELETE /api/devices/:tenant/internal-devices/:id`); it is listed again when seen again. */
export function forgetInternalDevice(tenant: string, id: string) {
  return request(internalDeviceEndpoints.forgetInternalDevice, { params: { tenant, id } });
}

/** Forgets a host and refreshes the lists; a failure toasts. */
export function useForgetInternalDevice(tenant: string, { onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) => forgetInternalDevice(tenant, id),
    onSuccess: async () => {
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: internalDevicesKeys.lists(tenant) });
    },
    onError: (error) =>
      showMutationError(t, error, {
        title: t('internalDevices.forget.failed', 'The device was not forgotten'),
      }),
  });
}
