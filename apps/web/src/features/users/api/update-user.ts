import { type User, type UserUpdate, userEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { usersKeys } from './users-keys';

/** Updates an end user (`PUT /api/subscriber/user/:tenant/:id`). */
export function updateUser(tenant: string, id: string, body: UserUpdate) {
  return request(userEndpoints.updateUser, { params: { tenant, id }, body });
}

/** Options of {@link useUpdateUser}. */
export interface UseUpdateUserOptions {
  onSuccess?: (user: User) => void;
  /** Replaces the default error toast. */
  onError?: (error: unknown) => void;
}

/** Updates a user, puts the answer into its detail cache and refreshes the lists. */
export function useUpdateUser(tenant: string, id: string, { onSuccess, onError }: UseUpdateUserOptions = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    // The global cache toast stays quiet: this hook shows its own, unless the caller handles errors.
    meta: { isSilent: true },
    mutationFn: (body: UserUpdate) => updateUser(tenant, id, body),
    onSuccess: async (user) => {
      queryClient.setQueryData(usersKeys.detail(tenant, id), user);
      await queryClient.invalidateQueries({ queryKey: usersKeys.lists(tenant) });
      onSuccess?.(user);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}
