import { groupEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { attachmentName, fileRequest, useLostSession } from '../../../lib/file-request';
import { showMutationError } from '../../../lib/mutation-toast';
import { saveBlob } from '../../../lib/save-file';

/** What the members export covers: the members table's search, every page. */
export interface GroupMembersExportQuery {
  q?: string;
}

/**
 * Every member of a group matching the search as a CSV file
 * (`GET /api/groups/:tenant/:id/members/export`).
 */
export async function exportGroupMembers(
  tenant: string,
  groupId: string,
  query: GroupMembersExportQuery,
  onLostSession: () => void,
) {
  const path = groupEndpoints.exportGroupMembers.path
    .replace(':tenant', encodeURIComponent(tenant))
    .replace(':id', encodeURIComponent(groupId));
  const response = await fileRequest(path, { query: { q: query.q?.trim() }, onLostSession });
  return { blob: await response.blob(), fileName: attachmentName(response) ?? `group-members-${tenant}.csv` };
}

/** Downloads the members export and saves it through the browser; a failure shows the error toast. */
export function useExportGroupMembers(tenant: string, groupId: string) {
  const { t } = useTranslation();
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (query: GroupMembersExportQuery) => exportGroupMembers(tenant, groupId, query, onLostSession),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) => showMutationError(t, error),
  });
}
