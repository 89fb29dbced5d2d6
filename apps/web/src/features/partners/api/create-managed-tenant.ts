import { type CreateManagedTenant, type ManagedTenant, partnerEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { partnersKeys } from './partners-keys';

/** Creates a customer tenant and invites its owner by mail (`POST /api/partner/:tenant/tenants`). */
export function createManagedTenant(tenant: string, body: CreateManagedTenant) {
  return request(partnerEndpoints.createManagedTenant, { params: { tenant }, body });
}

/** Options of {@link useCreateManagedTenant}. */
export interface UseCreateManagedTenantOptions {
  onSuccess?: (created: ManagedTenant) => void;
  /** The form shows field errors itself and toasts the rest. */
  onError?: (error: unknown) => void;
}

/** Creates a managed tenant, then refreshes the console's list. */
export function useCreateManagedTenant(
  tenant: string,
  { onSuccess, onError }: UseCreateManagedTenantOptions = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: CreateManagedTenant) => createManagedTenant(tenant, body),
    onSuccess: async (created) => {
      onSuccess?.(created);
      await queryClient.invalidateQueries({ queryKey: partnersKeys.lists(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}
