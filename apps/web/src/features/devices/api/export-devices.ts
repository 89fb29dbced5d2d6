import { type DeviceExportQuery, deviceEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { attachmentName, fileRequest, useLostSession } from '../../../lib/file-request';
import { showMutationError } from '../../../lib/mutation-toast';
import { saveBlob } from '../../../lib/save-file';

/** What the export covers: the list's filters, search and order, every page. */
export type DevicesExportParams = Partial<DeviceExportQuery>;

/** The device list matching the filters as a CSV file (`GET /api/devices/:tenant/export`). */
export async function exportDevices(tenant: string, query: DevicesExportParams, onLostSession: () => void) {
  const path = deviceEndpoints.exportDevices.path.replace(':tenant', encodeURIComponent(tenant));
  const strings = Object.fromEntries(
    Object.entries(query).map(([key, value]) => [key, value === undefined ? undefined : String(value)]),
  );
  const response = await fileRequest(path, { query: strings, onLostSession });
  return { blob: await response.blob(), fileName: attachmentName(response) ?? `devices-${tenant}.csv` };
}

/** Downloads the export and saves it through the browser; a failure shows the error toast. */
export function useExportDevices(tenant: string) {
  const { t } = useTranslation();
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (query: DevicesExportParams) => exportDevices(tenant, query, onLostSession),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) => showMutationError(t, error),
  });
}
