import { enrolmentEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { devicesKeys } from './devices-keys';

/** Revokes a deployment key (`DELETE /api/enrolment/:tenant/keys/:id`); devices it enrolled stay. */
export function revokeDeploymentKey(tenant: string, id: string) {
  return request(enrolmentEndpoints.revokeDeploymentKey, { params: { tenant, id } });
}

/** Revokes a key and refreshes the list; failures toast. */
export function useRevokeDeploymentKey(tenant: string, { onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) => revokeDeploymentKey(tenant, id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: devicesKeys.deploymentKeys(tenant) });
      onSuccess?.();
    },
    onError: (error) => showMutationError(t, error),
  });
}
