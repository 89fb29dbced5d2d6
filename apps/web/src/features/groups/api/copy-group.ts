import { type Group, type GroupInput, groupEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { groupsKeys } from './groups-keys';

/**
 * Copies group `sourceId` (`POST /api/groups/:tenant/:id/copy`): the new group and, when asked, the source's
 * members, in one server transaction — it either exists complete or not at all.
 */
export function copyGroup(
  tenant: string,
  sourceId: string,
  body: GroupInput,
  { withMembers }: { withMembers: boolean },
): Promise<Group> {
  return request(groupEndpoints.copyGroup, {
    params: { tenant, id: sourceId },
    body: { ...body, withMembers },
  });
}

/** Options of {@link useCopyGroup}. */
export interface UseCopyGroupOptions {
  onSuccess?: (group: Group) => void;
}

/** Copies a group (and its members when asked); refreshes the tenant's groups and users afterwards. */
export function useCopyGroup(tenant: string, sourceId: string, { onSuccess }: UseCopyGroupOptions = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ body, withMembers }: { body: GroupInput; withMembers: boolean }) =>
      copyGroup(tenant, sourceId, body, { withMembers }),
    onSuccess: async (group) => {
      queryClient.setQueryData(groupsKeys.detail(tenant, group.id), group);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: groupsKeys.all(tenant) }),
        queryClient.invalidateQueries({ queryKey: groupsKeys.users(tenant) }),
      ]);
      onSuccess?.(group);
    },
    onError: (error) => showMutationError(t, error),
  });
}
