import { groupEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { groupsKeys } from './groups-keys';

/** Deletes groups by a list of ids (`DELETE /api/groups/:tenant`, body `{ids}`). */
export function deleteGroups(tenant: string, ids: string[]) {
  return request(groupEndpoints.deleteGroups, { params: { tenant }, body: { ids } });
}

/** Options of {@link useDeleteGroups}. */
export interface UseDeleteGroupsOptions {
  onSuccess?: (result: { deleted: number }, ids: string[]) => void;
  /** Replaces the default error toast. */
  onError?: (error: unknown) => void;
}

/**
 * Deletes groups and refreshes the lists, the look-up and the users (who lose the groups). Detail caches of
 * deleted groups are dropped when nobody shows them and only marked stale otherwise, so a detail screen that
 * is about to navigate away does not fetch a 404 first.
 */
export function useDeleteGroups(tenant: string, { onSuccess, onError }: UseDeleteGroupsOptions = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (ids: string[]) => deleteGroups(tenant, ids),
    onSuccess: async (result, ids) => {
      for (const id of ids) {
        queryClient.removeQueries({ queryKey: groupsKeys.detail(tenant, id), type: 'inactive' });
        void queryClient.invalidateQueries({ queryKey: groupsKeys.detail(tenant, id), refetchType: 'none' });
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: groupsKeys.lists(tenant) }),
        queryClient.invalidateQueries({ queryKey: [...groupsKeys.all(tenant), 'options'] }),
        queryClient.invalidateQueries({ queryKey: groupsKeys.users(tenant) }),
      ]);
      onSuccess?.(result, ids);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}
