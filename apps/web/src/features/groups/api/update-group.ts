import { type Group, type GroupUpdate, groupEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { groupsKeys } from './groups-keys';

/** Changes a group's name or description (`PUT /api/groups/:tenant/:id`). */
export function updateGroup(tenant: string, id: string, body: GroupUpdate) {
  return request(groupEndpoints.updateGroup, { params: { tenant, id }, body });
}

/** Options of {@link useUpdateGroup}. */
export interface UseUpdateGroupOptions {
  onSuccess?: (group: Group) => void;
  /** Replaces the default error toast. */
  onError?: (error: unknown) => void;
}

/** Updates a group, puts the answer into its detail cache and refreshes the lists and the look-up. */
export function useUpdateGroup(
  tenant: string,
  id: string,
  { onSuccess, onError }: UseUpdateGroupOptions = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: GroupUpdate) => updateGroup(tenant, id, body),
    onSuccess: async (group) => {
      queryClient.setQueryData(groupsKeys.detail(tenant, id), group);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: groupsKeys.lists(tenant) }),
        queryClient.invalidateQueries({ queryKey: [...groupsKeys.all(tenant), 'options'] }),
      ]);
      onSuccess?.(group);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}
