import { type Group, type GroupInput, MAX_PAGE_SIZE } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addGroupMembers } from './change-group-members';
import { createGroup } from './create-group';
import { getGroupMembers } from './get-group-members';
import { groupsKeys } from './groups-keys';
import { showMutationError } from './mutation-toast';

/** How many members one add call carries when a copy brings a large group's members along. */
const ADD_CHUNK = 1000;

/** Every member id of a group, page by page. */
export async function allMemberIds(tenant: string, id: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += MAX_PAGE_SIZE) {
    const page = await getGroupMembers(tenant, id, { limit: MAX_PAGE_SIZE, offset });
    ids.push(...page.items.map((member) => member.id));
    if (page.items.length < MAX_PAGE_SIZE || ids.length >= page.total) return ids;
  }
}

/** What a copy did: the new group, and the failure of adding members if that part went wrong. */
export interface CopyResult {
  group: Group;
  /** Set when the group was created but its members could not all be added. */
  membersError: unknown;
}

/**
 * Creates a copy of group `sourceId`: the new group first, then (when asked) the source's members. A failure
 * to create rejects; a failure while adding members does not (the group exists by then) but is reported in
 * the result, so the screen can go to the new group and say what is missing.
 */
export async function copyGroup(
  tenant: string,
  sourceId: string,
  body: GroupInput,
  { withMembers }: { withMembers: boolean },
): Promise<CopyResult> {
  const group = await createGroup(tenant, body);
  if (!withMembers) return { group, membersError: null };
  let added = 0;
  try {
    const ids = await allMemberIds(tenant, sourceId);
    for (let start = 0; start < ids.length; start += ADD_CHUNK) {
      added += (await addGroupMembers(tenant, group.id, ids.slice(start, start + ADD_CHUNK))).added;
    }
  } catch (error) {
    return { group: { ...group, memberCount: added }, membersError: error };
  }
  return { group: { ...group, memberCount: added }, membersError: null };
}

/** Options of {@link useCopyGroup}. */
export interface UseCopyGroupOptions {
  onSuccess?: (result: CopyResult) => void;
}

/** Copies a group (and its members when asked); refreshes the tenant's groups and users afterwards. */
export function useCopyGroup(tenant: string, sourceId: string, { onSuccess }: UseCopyGroupOptions = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ body, withMembers }: { body: GroupInput; withMembers: boolean }) =>
      copyGroup(tenant, sourceId, body, { withMembers }),
    onSuccess: async (result) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: groupsKeys.all(tenant) }),
        queryClient.invalidateQueries({ queryKey: groupsKeys.users(tenant) }),
      ]);
      onSuccess?.(result);
    },
    onError: (error) => showMutationError(t, error),
  });
}
