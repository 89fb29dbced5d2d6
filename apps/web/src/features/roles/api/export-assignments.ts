import { roleEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { attachmentName, fileRequest, useLostSession } from '../../../lib/file-request';
import { showMutationError } from '../../../lib/mutation-toast';
import { saveBlob } from '../../../lib/save-file';

/** What the assignments export covers: the list's search, every page. */
export interface AssignmentsExportQuery {
  q?: string;
}

/**
 * The tenant's administrators matching the search with their roles, as a CSV file
 * (`GET /api/roles/:tenant/assignments/export`).
 */
export async function exportAssignments(
  tenant: string,
  query: AssignmentsExportQuery,
  onLostSession: () => void,
) {
  const path = roleEndpoints.exportAssignments.path.replace(':tenant', encodeURIComponent(tenant));
  const response = await fileRequest(path, { query: { q: query.q?.trim() }, onLostSession });
  return {
    blob: await response.blob(),
    fileName: attachmentName(response) ?? `role-assignments-${tenant}.csv`,
  };
}

/** Downloads the assignments export and saves it through the browser; a failure shows the error toast. */
export function useExportAssignments(tenant: string) {
  const { t } = useTranslation();
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (query: AssignmentsExportQuery) => exportAssignments(tenant, query, onLostSession),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) => showMutationError(t, error),
  });
}
