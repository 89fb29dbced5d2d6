import { type ManagedTenant, partnerEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { partnersKeys } from './partners-keys';

/** Moves a customer tenant to another partner (`PUT /api/partner/:tenant/tenants/:id/partner`; platform only). */
export function moveManagedTenant(tenant: string, id: string, partner: string) {
  return request(partnerEndpoints.moveManagedTenant, { params: { tenant, id }, body: { partner } });
}

/** What {@link useMoveManagedTenant} sends. */
export interface MoveManagedTenantVariables {
  id: string;
  partner: string;
}

/** Options of {@link useMoveManagedTenant}. */
export interface UseMoveManagedTenantOptions {
  onSuccess?: (tenant: ManagedTenant) => void;
  /** The dialog shows a field error itself and toasts the rest. */
  onError?: (error: unknown) => void;
}

/** Moves a tenant, then refreshes the console's list. */
export function useMoveManagedTenant(
  tenant: string,
  { onSuccess, onError }: UseMoveManagedTenantOptions = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ id, partner }: MoveManagedTenantVariables) => moveManagedTenant(tenant, id, partner),
    onSuccess: async (moved) => {
      onSuccess?.(moved);
      await queryClient.invalidateQueries({ queryKey: partnersKeys.lists(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}
