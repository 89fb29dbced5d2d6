import { type AssignRoleInput, type RoleAssignment, roleEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { rolesKeys } from './roles-keys';

/** Gives an administrator a built-in or a custom role (`PUT /api/roles/:tenant/assignments/:id`). */
export function assignRole(tenant: string, userId: string, body: AssignRoleInput) {
  return request(roleEndpoints.assignRole, { params: { tenant, id: userId }, body });
}

/** What {@link useAssignRole} sends: whose role, and which (exactly one of `role` and `customRoleId`). */
export interface AssignRoleVariables {
  userId: string;
  body: AssignRoleInput;
}

/** Options of {@link useAssignRole}. */
export interface UseAssignRoleOptions {
  onSuccess?: (assignment: RoleAssignment) => void;
  onError?: (error: unknown, variables: AssignRoleVariables) => void;
}

/** Changes an administrator's role, then refreshes the assignments and the roles' holder counts. */
export function useAssignRole(tenant: string, { onSuccess, onError }: UseAssignRoleOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ userId, body }: AssignRoleVariables) => assignRole(tenant, userId, body),
    onSuccess: async (assignment) => {
      await queryClient.invalidateQueries({ queryKey: rolesKeys.all(tenant) });
      onSuccess?.(assignment);
    },
    onError: (error, variables) => onError?.(error, variables),
  });
}
