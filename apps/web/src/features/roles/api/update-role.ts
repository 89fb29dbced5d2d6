import { type CustomRole, type CustomRoleInput, roleEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { rolesKeys } from './roles-keys';

/** Changes a custom role's name, description and permissions (`PUT /api/roles/:tenant/:id`). */
export function updateRole(tenant: string, id: string, body: CustomRoleInput) {
  return request(roleEndpoints.updateRole, { params: { tenant, id }, body });
}

/**
 * Updates a custom role and refreshes the roles and the assignments (which show role names). Errors are left to
 * the caller, as for {@link useCreateRole}.
 */
export function useUpdateRole(
  tenant: string,
  { onSuccess }: { onSuccess?: (role: CustomRole) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ id, body }: { id: string; body: CustomRoleInput }) => updateRole(tenant, id, body),
    onSuccess: async (role) => {
      await queryClient.invalidateQueries({ queryKey: rolesKeys.all(tenant) });
      onSuccess?.(role);
    },
  });
}
