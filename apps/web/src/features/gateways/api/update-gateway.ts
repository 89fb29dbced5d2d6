import { type Gateway, type GatewayUpdate, gatewayEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { gatewaysKeys } from './gateways-keys';

/** Renames a gateway or moves it to another region (`PUT /api/cybernodes/:tenant/:id`). */
export function updateGateway(tenant: string, id: string, body: GatewayUpdate) {
  return request(gatewayEndpoints.updateGateway, { params: { tenant, id }, body });
}

/** Options of {@link useUpdateGateway}. */
export interface UseUpdateGatewayOptions {
  onSuccess?: (gateway: Gateway) => void;
  /** The form shows field errors itself and toasts the rest. */
  onError?: (error: unknown) => void;
}

/** Updates a gateway, puts the answer into its detail cache and refreshes the lists. */
export function useUpdateGateway(
  tenant: string,
  id: string,
  { onSuccess, onError }: UseUpdateGatewayOptions = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: GatewayUpdate) => updateGateway(tenant, id, body),
    onSuccess: async (gateway) => {
      queryClient.setQueryData(gatewaysKeys.detail(tenant, id), gateway);
      onSuccess?.(gateway);
      await queryClient.invalidateQueries({ queryKey: gatewaysKeys.lists(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}
