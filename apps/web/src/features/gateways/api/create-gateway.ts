import { type GatewayInput, gatewayEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type GatewayCreatedAnswer, gatewaysKeys } from './gateways-keys';

/** Adds a cybernode or site gateway (`POST /api/cybernodes/:tenant`); the answer carries its enrolment token. */
export function createGateway(tenant: string, body: GatewayInput) {
  return request(gatewayEndpoints.createGateway, { params: { tenant }, body });
}

/** Options of {@link useCreateGateway}. */
export interface UseCreateGatewayOptions {
  onSuccess?: (created: GatewayCreatedAnswer) => void;
  /** The form shows field errors itself and toasts the rest. */
  onError?: (error: unknown) => void;
}

/**
 * Adds a gateway and refreshes the lists. The one-time token is handed to `onSuccess` only: it is never put in
 * the query cache, so it disappears with the dialog that shows it.
 */
export function useCreateGateway(tenant: string, { onSuccess, onError }: UseCreateGatewayOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: GatewayInput) => createGateway(tenant, body),
    onSuccess: async (created) => {
      queryClient.setQueryData(gatewaysKeys.detail(tenant, created.cybernode.id), created.cybernode);
      onSuccess?.(created);
      await queryClient.invalidateQueries({ queryKey: gatewaysKeys.lists(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}
