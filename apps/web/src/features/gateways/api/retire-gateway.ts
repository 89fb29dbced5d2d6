import { type Gateway, gatewayEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { gatewaysKeys } from './gateways-keys';

/** Retires a gateway: its credential stops working at once (`DELETE /api/cybernodes/:tenant/:id`). */
export function retireGateway(tenant: string, id: string) {
  return request(gatewayEndpoints.retireGateway, { params: { tenant, id } });
}

/**
 * Retires a gateway; the answer (now retired) replaces its detail cache and the lists are refreshed. Failures
 * get the default toast.
 */
export function useRetireGateway(
  tenant: string,
  id: string,
  { onSuccess }: { onSuccess?: (gateway: Gateway) => void } = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: () => retireGateway(tenant, id),
    onSuccess: async (gateway) => {
      queryClient.setQueryData(gatewaysKeys.detail(tenant, id), gateway);
      onSuccess?.(gateway);
      await queryClient.invalidateQueries({ queryKey: gatewaysKeys.lists(tenant) });
    },
    onError: (error) =>
      showMutationError(t, error, { title: t('gateways.retire.failed', 'The gateway was not retired') }),
  });
}
