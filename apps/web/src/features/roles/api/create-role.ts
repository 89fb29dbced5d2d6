import { type CustomRole, type CustomRoleInput, roleEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { rolesKeys } from './roles-keys';

/** Creates a custom role (`POST /api/roles/:tenant`). */
export function createRole(tenant: string, body: CustomRoleInput) {
  return request(roleEndpoints.createRole, { params: { tenant }, body });
}

/**
 * Creates a custom role and refreshes the roles. Errors are left to the caller: the editor puts the server's
 * field details (a taken name) on its fields.
 */
export function useCreateRole(
  tenant: string,
  { onSuccess }: { onSuccess?: (role: CustomRole) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: CustomRoleInput) => createRole(tenant, body),
    onSuccess: async (role) => {
      await queryClient.invalidateQueries({ queryKey: rolesKeys.list(tenant) });
      onSuccess?.(role);
    },
  });
}
