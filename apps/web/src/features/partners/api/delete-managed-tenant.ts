import { type ManagedTenant, partnerEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { partnersKeys } from './partners-keys';

/** Schedules a customer tenant's deletion (`DELETE /api/partner/:tenant/tenants/:id`). */
export function deleteManagedTenant(tenant: string, id: string) {
  return request(partnerEndpoints.deleteManagedTenant, { params: { tenant, id } });
}

/** Cancels a scheduled deletion (`POST /api/partner/:tenant/tenants/:id/restore`). */
export function restoreManagedTenant(tenant: string, id: string) {
  return request(partnerEndpoints.restoreManagedTenant, { params: { tenant, id } });
}

/** Options of {@link useDeleteManagedTenant} and {@link useRestoreManagedTenant}. */
export interface UseTenantDeletionOptions {
  onSuccess?: (tenant: ManagedTenant) => void;
  onError?: (error: unknown) => void;
}

/** Schedules a deletion, then refreshes the console's list. */
export function useDeleteManagedTenant(
  tenant: string,
  { onSuccess, onError }: UseTenantDeletionOptions = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) => deleteManagedTenant(tenant, id),
    onSuccess: async (deleted) => {
      onSuccess?.(deleted);
      await queryClient.invalidateQueries({ queryKey: partnersKeys.lists(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}

/** Restores a tenant, then refreshes the console's list. */
export function useRestoreManagedTenant(
  tenant: string,
  { onSuccess, onError }: UseTenantDeletionOptions = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) => restoreManagedTenant(tenant, id),
    onSuccess: async (restored) => {
      onSuccess?.(restored);
      await queryClient.invalidateQueries({ queryKey: partnersKeys.lists(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}
