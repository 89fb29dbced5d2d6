import { type Endpoint, telemetryEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { attachmentName, fileRequest, useLostSession } from '../../../lib/file-request';
import { showMutationError } from '../../../lib/mutation-toast';
import { saveBlob } from '../../../lib/save-file';
import type { ConnectionEventsExportParams, DeviceEventsExportParams, TelemetryKind } from './telemetry-keys';

const EXPORTS: Record<TelemetryKind, { endpoint: Endpoint; fileName: string }> = {
  connections: { endpoint: telemetryEndpoints.exportConnectionEvents, fileName: 'connection-events' },
  devices: { endpoint: telemetryEndpoints.exportDeviceEvents, fileName: 'device-events' },
};

/** The filters of an export, as either screen sends them. */
export type TelemetryExportParams = ConnectionEventsExportParams | DeviceEventsExportParams;

/**
 * Every event of the filters as a CSV file, streamed by the server (`GET /api/events/connections/:tenant/export`
 * or `GET /api/events/devices/:tenant/export`).
 */
export async function exportEvents(
  tenant: string,
  kind: TelemetryKind,
  query: TelemetryExportParams,
  onLostSession: () => void,
) {
  const { endpoint, fileName } = EXPORTS[kind];
  const path = endpoint.path.replace(':tenant', encodeURIComponent(tenant));
  const strings = Object.fromEntries(
    Object.entries(query).map(([key, value]) => [key, value === undefined ? undefined : String(value)]),
  );
  const response = await fileRequest(path, { query: strings, onLostSession });
  return { blob: await response.blob(), fileName: attachmentName(response) ?? `${fileName}-${tenant}.csv` };
}

/** Downloads the export of one screen and saves it through the browser; a failure shows the error toast. */
export function useExportEvents(tenant: string, kind: TelemetryKind) {
  const { t } = useTranslation();
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (query: TelemetryExportParams) => exportEvents(tenant, kind, query, onLostSession),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) =>
      showMutationError(t, error, { title: t('telemetry.export.failed', 'The export did not work') }),
  });
}
