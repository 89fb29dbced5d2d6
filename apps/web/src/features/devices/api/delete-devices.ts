import { enrolmentEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { devicesKeys } from './devices-keys';

/** Removes devices by id (`DELETE /api/enrolment/:tenant/devices`, body `{ids}`); they must enrol again. */
export function deleteDevices(tenant: string, ids: string[]) {
  return request(enrolmentEndpoints.deleteDevices, { params: { tenant }, body: { ids } });
}

/** Removes devices and refreshes the user lists; failures toast. */
export function useDeleteDevices(
  tenant: string,
  { onSuccess }: { onSuccess?: (result: { deleted: number }) => void } = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (ids: string[]) => deleteDevices(tenant, ids),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: devicesKeys.userLists(tenant) });
      onSuccess?.(result);
    },
    onError: (error) => showMutationError(t, error),
  });
}
