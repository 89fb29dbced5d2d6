import { type IMPORT_MODES, type ImportJob, userBulkEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fileRequest, useLostSession } from './file-request';
import { showMutationError } from './mutation-toast';

/** all: nothing is created when a row is bad; valid: good rows are created, bad ones reported. */
export type ImportMode = (typeof IMPORT_MODES)[number];

/** Starts an import of a CSV text (`POST /api/subscriber/user/:tenant/import?mode=`, `text/csv`); answers the job. */
export async function importUsers(tenant: string, csv: string, mode: ImportMode, onLostSession: () => void) {
  const path = userBulkEndpoints.importUsers.path.replace(':tenant', encodeURIComponent(tenant));
  const response = await fileRequest(path, {
    method: 'POST',
    query: { mode },
    body: csv,
    contentType: 'text/csv',
    onLostSession,
  });
  return (await response.json()) as ImportJob;
}

/** Starts an import. The caller shows errors with a file-level meaning (an empty file) itself. */
export function useImportUsers(tenant: string, options: { onError?: (error: unknown) => void } = {}) {
  const { t } = useTranslation();
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ csv, mode }: { csv: string; mode: ImportMode }) =>
      importUsers(tenant, csv, mode, onLostSession),
    onError: (error) => (options.onError ? options.onError(error) : showMutationError(t, error)),
  });
}
