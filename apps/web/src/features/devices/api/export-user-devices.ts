import { enrolmentEndpoints, type UserDevicesQuery } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { attachmentName, fileRequest, useLostSession } from '../../../lib/file-request';
import { showMutationError } from '../../../lib/mutation-toast';
import { saveBlob } from '../../../lib/save-file';

/** What the export covers: the list's search, filter and method, every page. */
export type UserDevicesExportParams = Partial<Pick<UserDevicesQuery, 'q' | 'filter' | 'method'>>;

/**
 * Every end user matching the list with their devices (one line per device) as a CSV file
 * (`GET /api/enrolment/:tenant/users/export`).
 */
export async function exportUserDevices(
  tenant: string,
  query: UserDevicesExportParams,
  onLostSession: () => void,
) {
  const path = enrolmentEndpoints.exportUserDevices.path.replace(':tenant', encodeURIComponent(tenant));
  const response = await fileRequest(path, {
    query: { q: query.q?.trim(), filter: query.filter, method: query.method },
    onLostSession,
  });
  return { blob: await response.blob(), fileName: attachmentName(response) ?? `users-devices-${tenant}.csv` };
}

/** Downloads the export and saves it through the browser; a failure shows the error toast. */
export function useExportUserDevices(tenant: string) {
  const { t } = useTranslation();
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (query: UserDevicesExportParams) => exportUserDevices(tenant, query, onLostSession),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) => showMutationError(t, error),
  });
}
