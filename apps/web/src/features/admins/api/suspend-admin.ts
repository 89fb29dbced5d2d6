import { type Admin, adminEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminsKeys } from './admins-keys';

/** Suspends or reinstates an administrator (`PUT /api/admins/:tenant/:id/suspension`). */
export function suspendAdmin(tenant: string, id: string, suspended: boolean) {
  return request(adminEndpoints.suspendAdmin, { params: { tenant, id }, body: { suspended } });
}

/** What {@link useSuspendAdmin} sends. */
export interface SuspendAdminVariables {
  id: string;
  suspended: boolean;
}

/** Options of {@link useSuspendAdmin}. */
export interface UseSuspendAdminOptions {
  onSuccess?: (admin: Admin) => void;
  onError?: (error: unknown, variables: SuspendAdminVariables) => void;
}

/** Suspends or reinstates, then refreshes the administrators and the roles area. */
export function useSuspendAdmin(tenant: string, { onSuccess, onError }: UseSuspendAdminOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ id, suspended }: SuspendAdminVariables) => suspendAdmin(tenant, id, suspended),
    onSuccess: async (admin) => {
      onSuccess?.(admin);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminsKeys.all(tenant) }),
        queryClient.invalidateQueries({ queryKey: adminsKeys.rolesArea(tenant) }),
      ]);
    },
    onError: (error, variables) => onError?.(error, variables),
  });
}
