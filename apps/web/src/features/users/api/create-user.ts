import { type User, type UserInput, userEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { usersKeys } from './users-keys';

/** Creates an end user (`POST /api/subscriber/user/:tenant`). */
export function createUser(tenant: string, body: UserInput) {
  return request(userEndpoints.createUser, { params: { tenant }, body });
}

/** Options of {@link useCreateUser}. */
export interface UseCreateUserOptions {
  onSuccess?: (user: User) => void;
  /** Replaces the default error toast. */
  onError?: (error: unknown) => void;
}

/** Creates a user, refreshes the tenant's user lists and seeds the new user's detail cache. */
export function useCreateUser(tenant: string, { onSuccess, onError }: UseCreateUserOptions = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    // The global cache toast stays quiet: this hook shows its own, unless the caller handles errors.
    meta: { isSilent: true },
    mutationFn: (body: UserInput) => createUser(tenant, body),
    onSuccess: async (user) => {
      queryClient.setQueryData(usersKeys.detail(tenant, user.id), user);
      await queryClient.invalidateQueries({ queryKey: usersKeys.all(tenant) });
      onSuccess?.(user);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}
