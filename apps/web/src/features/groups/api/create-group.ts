import { type Group, type GroupInput, groupEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { groupsKeys } from './groups-keys';

/** Creates a group (`POST /api/groups/:tenant`). */
export function createGroup(tenant: string, body: GroupInput) {
  return request(groupEndpoints.createGroup, { params: { tenant }, body });
}

/** Options of {@link useCreateGroup}. */
export interface UseCreateGroupOptions {
  onSuccess?: (group: Group) => void;
  /** Replaces the default error toast. */
  onError?: (error: unknown) => void;
}

/**
 * Creates a group, refreshes the tenant's group lists (and the users area's group look-up) and seeds the new
 * group's detail cache.
 */
export function useCreateGroup(tenant: string, { onSuccess, onError }: UseCreateGroupOptions = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    // The global cache toast stays quiet: this hook shows its own, unless the caller handles errors.
    meta: { isSilent: true },
    mutationFn: (body: GroupInput) => createGroup(tenant, body),
    onSuccess: async (group) => {
      queryClient.setQueryData(groupsKeys.detail(tenant, group.id), group);
      await queryClient.invalidateQueries({ queryKey: groupsKeys.all(tenant) });
      onSuccess?.(group);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}
