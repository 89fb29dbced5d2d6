import { groupEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { groupsKeys } from './groups-keys';

/** Adds end users to a group (`POST /api/groups/:tenant/:id/members`, body `{userIds}`). */
export function addGroupMembers(tenant: string, id: string, userIds: string[]) {
  return request(groupEndpoints.addGroupMembers, { params: { tenant, id }, body: { userIds } });
}

/** Removes end users from a group (`DELETE /api/groups/:tenant/:id/members`, body `{userIds}`). */
export function removeGroupMembers(tenant: string, id: string, userIds: string[]) {
  return request(groupEndpoints.removeGroupMembers, { params: { tenant, id }, body: { userIds } });
}

/** Options of {@link useAddGroupMembers} and {@link useRemoveGroupMembers}. */
export interface UseChangeMembersOptions<R> {
  onSuccess?: (result: R) => void;
  /** Replaces the default error toast. */
  onError?: (error: unknown) => void;
}

/** Refreshes what a membership change touches: the group (count, members, usage), the lists and the users. */
function useRefreshAfterMembership(tenant: string, id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: groupsKeys.detail(tenant, id) }),
      queryClient.invalidateQueries({ queryKey: groupsKeys.lists(tenant) }),
      queryClient.invalidateQueries({ queryKey: groupsKeys.users(tenant) }),
    ]);
}

/** Adds members to a group. */
export function useAddGroupMembers(
  tenant: string,
  id: string,
  { onSuccess, onError }: UseChangeMembersOptions<{ added: number }> = {},
) {
  const { t } = useTranslation();
  const refresh = useRefreshAfterMembership(tenant, id);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (userIds: string[]) => addGroupMembers(tenant, id, userIds),
    onSuccess: async (result) => {
      await refresh();
      onSuccess?.(result);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}

/** Removes members from a group. */
export function useRemoveGroupMembers(
  tenant: string,
  id: string,
  { onSuccess, onError }: UseChangeMembersOptions<{ removed: number }> = {},
) {
  const { t } = useTranslation();
  const refresh = useRefreshAfterMembership(tenant, id);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (userIds: string[]) => removeGroupMembers(tenant, id, userIds),
    onSuccess: async (result) => {
      await refresh();
      onSuccess?.(result);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}
