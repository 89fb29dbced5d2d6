import { type Admin, adminEndpoints, type InviteAdminInput } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminsKeys } from './admins-keys';

/** Invites an administrator by e-mail (`POST /api/admins/:tenant/invite`). */
export function inviteAdmin(tenant: string, body: InviteAdminInput) {
  return request(adminEndpoints.inviteAdmin, { params: { tenant }, body });
}

/** Options of {@link useInviteAdmin}. */
export interface UseInviteAdminOptions {
  onSuccess?: (admin: Admin) => void;
  /** The form shows field errors itself and toasts the rest. */
  onError?: (error: unknown) => void;
}

/** Invites an administrator, then refreshes the administrators and the roles area. */
export function useInviteAdmin(tenant: string, { onSuccess, onError }: UseInviteAdminOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: InviteAdminInput) => inviteAdmin(tenant, body),
    onSuccess: async (admin) => {
      onSuccess?.(admin);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminsKeys.all(tenant) }),
        queryClient.invalidateQueries({ queryKey: adminsKeys.rolesArea(tenant) }),
      ]);
    },
    onError: (error) => onError?.(error),
  });
}
