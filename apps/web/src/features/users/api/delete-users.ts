import { userEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { usersKeys } from './users-keys';

/** Deletes end users by a list of ids (`DELETE /api/subscriber/user/:tenant`, body `{ids}`). */
export function deleteUsers(tenant: string, ids: string[]) {
  return request(userEndpoints.deleteUsers, { params: { tenant }, body: { ids } });
}

/** Options of {@link useDeleteUsers}. */
export interface UseDeleteUsersOptions {
  onSuccess?: (result: { deleted: number }, ids: string[]) => void;
  /** Replaces the default error toast. */
  onError?: (error: unknown) => void;
}

/**
 * Deletes users and refreshes the lists. Detail caches of deleted users are dropped when nobody shows them, and
 * only marked stale otherwise: removing a query that a mounted detail screen still observes would make that
 * screen fetch it again (and meet a 404) in the moment before it navigates away.
 */
export function useDeleteUsers(tenant: string, { onSuccess, onError }: UseDeleteUsersOptions = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    // The global cache toast stays quiet: this hook shows its own, unless the caller handles errors.
    meta: { isSilent: true },
    mutationFn: (ids: string[]) => deleteUsers(tenant, ids),
    onSuccess: async (result, ids) => {
      for (const id of ids) {
        queryClient.removeQueries({ queryKey: usersKeys.detail(tenant, id), type: 'inactive' });
        void queryClient.invalidateQueries({ queryKey: usersKeys.detail(tenant, id), refetchType: 'none' });
      }
      await queryClient.invalidateQueries({ queryKey: usersKeys.lists(tenant) });
      onSuccess?.(result, ids);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}
