import { type ManagedTenant, partnerEndpoints, type SettableTenantStatus } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { partnersKeys } from './partners-keys';

/** Suspends or resumes a managed tenant (`PUT /api/partner/:tenant/tenants/:id/status`). */
export function setManagedTenantStatus(tenant: string, id: string, status: SettableTenantStatus) {
  return request(partnerEndpoints.setManagedTenantStatus, { params: { tenant, id }, body: { status } });
}

/** What {@link useSetManagedTenantStatus} sends. */
export interface SetManagedTenantStatusVariables {
  id: string;
  status: SettableTenantStatus;
}

/** Options of {@link useSetManagedTenantStatus}. */
export interface UseSetManagedTenantStatusOptions {
  onSuccess?: (tenant: ManagedTenant) => void;
  onError?: (error: unknown, variables: SetManagedTenantStatusVariables) => void;
}

/** Suspends or resumes, then refreshes the console's list. */
export function useSetManagedTenantStatus(
  tenant: string,
  { onSuccess, onError }: UseSetManagedTenantStatusOptions = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ id, status }: SetManagedTenantStatusVariables) =>
      setManagedTenantStatus(tenant, id, status),
    onSuccess: async (changed) => {
      onSuccess?.(changed);
      await queryClient.invalidateQueries({ queryKey: partnersKeys.lists(tenant) });
    },
    onError: (error, variables) => onError?.(error, variables),
  });
}
