import { type Gateway, gatewayEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { gatewaysKeys } from './gateways-keys';

/** Asks a gateway to upgrade to `targetVersion` (`POST /api/cybernodes/:tenant/:id/upgrade`). */
export function upgradeGateway(tenant: string, id: string, targetVersion: string) {
  return request(gatewayEndpoints.upgradeGateway, { params: { tenant, id }, body: { targetVersion } });
}

/** Options of {@link useUpgradeGateway}. */
export interface UseUpgradeGatewayOptions {
  onSuccess?: (gateway: Gateway) => void;
  /** The form shows field errors itself and toasts the rest. */
  onError?: (error: unknown) => void;
}

/** Requests an upgrade, puts the answer (with its pending upgrade) into the detail cache, refreshes the lists. */
export function useUpgradeGateway(
  tenant: string,
  id: string,
  { onSuccess, onError }: UseUpgradeGatewayOptions = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (targetVersion: string) => upgradeGateway(tenant, id, targetVersion),
    onSuccess: async (gateway) => {
      queryClient.setQueryData(gatewaysKeys.detail(tenant, id), gateway);
      onSuccess?.(gateway);
      await queryClient.invalidateQueries({ queryKey: gatewaysKeys.lists(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}
