import { type USER_SORTS, userBulkEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { attachmentName, fileRequest, useLostSession } from '../../../lib/file-request';
import { showMutationError } from '../../../lib/mutation-toast';
import { saveBlob } from '../../../lib/save-file';

/** What the export covers: the list's search and order, every page. */
export interface UsersExportQuery {
  q?: string;
  sort: (typeof USER_SORTS)[number];
  order: 'asc' | 'desc';
}

/** Every user matching the search as a CSV file (`GET /api/subscriber/user/:tenant/export`). */
export async function exportUsers(tenant: string, query: UsersExportQuery, onLostSession: () => void) {
  const path = userBulkEndpoints.exportUsers.path.replace(':tenant', encodeURIComponent(tenant));
  const response = await fileRequest(path, {
    query: { q: query.q?.trim(), sort: query.sort, order: query.order },
    onLostSession,
  });
  return { blob: await response.blob(), fileName: attachmentName(response) ?? `users-${tenant}.csv` };
}

/** Downloads the export and saves it through the browser; a failure shows the error toast. */
export function useExportUsers(tenant: string) {
  const { t } = useTranslation();
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (query: UsersExportQuery) => exportUsers(tenant, query, onLostSession),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) => showMutationError(t, error),
  });
}
