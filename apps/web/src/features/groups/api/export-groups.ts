import { type GROUP_SORTS, groupEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { attachmentName, fileRequest, useLostSession } from '../../../lib/file-request';
import { showMutationError } from '../../../lib/mutation-toast';
import { saveBlob } from '../../../lib/save-file';

/** What the export covers: the list's search and order, every page. */
export interface GroupsExportQuery {
  q?: string;
  sort: (typeof GROUP_SORTS)[number];
  order: 'asc' | 'desc';
}

/** Every group matching the search, with its members, as a CSV file (`GET /api/groups/:tenant/export`). */
export async function exportGroups(tenant: string, query: GroupsExportQuery, onLostSession: () => void) {
  const path = groupEndpoints.exportGroups.path.replace(':tenant', encodeURIComponent(tenant));
  const response = await fileRequest(path, {
    query: { q: query.q?.trim(), sort: query.sort, order: query.order },
    onLostSession,
  });
  return { blob: await response.blob(), fileName: attachmentName(response) ?? `groups-${tenant}.csv` };
}

/** Downloads the export and saves it through the browser; a failure shows the error toast. */
export function useExportGroups(tenant: string) {
  const { t } = useTranslation();
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (query: GroupsExportQuery) => exportGroups(tenant, query, onLostSession),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) => showMutationError(t, error),
  });
}
