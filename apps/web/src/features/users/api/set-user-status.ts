import { type User, type UserStatusInput, userEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { usersKeys } from './users-keys';

/** Disables (with a reason) or enables an end user (`PUT /api/subscriber/user/:tenant/:id/status`). */
export function setUserStatus(tenant: string, id: string, body: UserStatusInput) {
  return request(userEndpoints.setUserStatus, { params: { tenant, id }, body });
}

/** Changes a user's account status, puts the answer into its detail cache and refreshes the lists. */
export function useSetUserStatus(
  tenant: string,
  id: string,
  { onSuccess }: { onSuccess?: (user: User) => void } = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    // Field problems (the reason) show in the dialog; anything else as the usual toast.
    meta: { isSilent: true },
    mutationFn: (body: UserStatusInput) => setUserStatus(tenant, id, body),
    onSuccess: async (user) => {
      queryClient.setQueryData(usersKeys.detail(tenant, id), user);
      await queryClient.invalidateQueries({ queryKey: usersKeys.lists(tenant) });
      onSuccess?.(user);
    },
    onError: (error) => showMutationError(t, error),
  });
}
