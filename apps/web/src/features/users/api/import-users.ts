import { type ImportJob, userBulkEndpoints } from '@palisade/contracts';
import type { ImportMode } from '../../../components/ui/csv-import';
import { fileRequest } from '../../../lib/file-request';

/** Starts an import of a CSV text (`POST /api/subscriber/user/:tenant/import?mode=`, `text/csv`); answers the job. */
export async function importUsers(
  tenant: string,
  csv: string,
  mode: ImportMode,
  onLostSession: () => void,
  dryRun = false,
) {
  const path = userBulkEndpoints.importUsers.path.replace(':tenant', encodeURIComponent(tenant));
  const response = await fileRequest(path, {
    method: 'POST',
    // A dry run checks and counts, writing nothing.
    query: { mode, dryRun: dryRun ? 'true' : undefined },
    body: csv,
    contentType: 'text/csv',
    onLostSession,
  });
  return (await response.json()) as ImportJob;
}
