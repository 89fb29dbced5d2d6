import { adminEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminsKeys } from './admins-keys';

/** Removes an administrator (`DELETE /api/admins/:tenant/:id`). */
export function removeAdmin(tenant: string, id: string) {
  return request(adminEndpoints.removeAdmin, { params: { tenant, id } });
}

/** Options of {@link useRemoveAdmin}. */
export interface UseRemoveAdminOptions {
  onSuccess?: () => void;
  onError?: (error: unknown) => void;
}

/** Removes an administrator, then refreshes the administrators and the roles area. */
export function useRemoveAdmin(tenant: string, { onSuccess, onError }: UseRemoveAdminOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) => removeAdmin(tenant, id),
    onSuccess: async () => {
      onSuccess?.();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminsKeys.all(tenant) }),
        queryClient.invalidateQueries({ queryKey: adminsKeys.rolesArea(tenant) }),
      ]);
    },
    onError: (error) => onError?.(error),
  });
}
