import { type UserBulkInput, userBulkEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from './mutation-toast';
import { usersKeys } from './users-keys';

/** Changes many users at once (`POST /api/subscriber/user/:tenant/bulk`, body `{ids, action, groupId?}`). */
export function bulkUsers(tenant: string, body: UserBulkInput) {
  return request(userBulkEndpoints.bulkUsers, { params: { tenant }, body });
}

/** Options of {@link useBulkUsers}. */
export interface UseBulkUsersOptions {
  onSuccess?: (result: { updated: number }, input: UserBulkInput) => void;
  /** Replaces the default error toast. */
  onError?: (error: unknown) => void;
}

/** Runs a bulk change and refreshes the tenant's user lists and details (flags and groups changed). */
export function useBulkUsers(tenant: string, { onSuccess, onError }: UseBulkUsersOptions = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    // The global cache toast stays quiet: this hook shows its own, unless the caller handles errors.
    meta: { isSilent: true },
    mutationFn: (input: UserBulkInput) => bulkUsers(tenant, input),
    onSuccess: async (result, input) => {
      await queryClient.invalidateQueries({ queryKey: usersKeys.all(tenant) });
      onSuccess?.(result, input);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}
