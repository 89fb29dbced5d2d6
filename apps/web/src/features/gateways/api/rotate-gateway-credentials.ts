import { gatewayEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { type GatewayCreatedAnswer, gatewaysKeys } from './gateways-keys';

/** Revokes a gateway's credential and issues a new enrolment token (`POST …/:id/rotate`). */
export function rotateGatewayCredentials(tenant: string, id: string) {
  return request(gatewayEndpoints.rotateGatewayCredentials, { params: { tenant, id } });
}

/**
 * Rotates the credential, puts the gateway into its detail cache and refreshes the lists; failures get the
 * default toast. The new token goes to `onSuccess` only, never into the cache.
 */
export function useRotateGatewayCredentials(
  tenant: string,
  id: string,
  { onSuccess }: { onSuccess?: (answer: GatewayCreatedAnswer) => void } = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: () => rotateGatewayCredentials(tenant, id),
    onSuccess: async (answer) => {
      queryClient.setQueryData(gatewaysKeys.detail(tenant, id), answer.cybernode);
      onSuccess?.(answer);
      await queryClient.invalidateQueries({ queryKey: gatewaysKeys.lists(tenant) });
    },
    onError: (error) =>
      showMutationError(t, error, {
        title: t('gateways.rotate.failed', 'The credentials were not rotated'),
      }),
  });
}
