import { CONNECTION_ACTIONS, type ConnectionAction, type ConnectionEvent } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '../../../components/list/column-choice';
import { useWorkingTenant } from '../../../lib/auth';
import { useFormatters } from '../../../lib/format-time';
import { useExportEvents } from '../api/export-events';
import { useConnectionEvents } from '../api/get-connection-events';
import { useCommonColumns } from '../components/event-columns';
import type { EventField } from '../components/event-drawer';
import { useConnectionActionLabels, useFormatBytes } from '../components/labels';
import { TelemetryScreen, useTelemetryList } from '../components/telemetry-screen';
import { telemetryListCodec } from '../utils/event-filters';

const codec = telemetryListCodec(CONNECTION_ACTIONS);

/**
 * `/events/connection-status`: devices connecting and disconnecting and tunnels going up and down, as the
 * gateways saw them — newest first, paged on the server, filtered by time range, user, device, gateway and
 * action (kept in the address), each row opening its details, the filtered set exported as CSV.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const actionLabels = useConnectionActionLabels();
  const formatDuration = useFormatters().duration;
  const formatBytes = useFormatBytes();
  const list = useTelemetryList(codec);
  const query = useConnectionEvents(tenant, list.listQuery);
  const exporter = useExportEvents(tenant, 'connections');
  const [opened, setOpened] = useState<ConnectionEvent | null>(null);

  const common = useCommonColumns<ConnectionEvent>({
    actionLabel: (event) => actionLabels[event.action],
    onOpen: setOpened,
  });
  const orDash = (value: string | null) => value ?? '—';
  const columns: ListColumn<ConnectionEvent>[] = [
    common.time,
    common.action,
    common.user,
    common.device,
    common.gateway,
    {
      accessor: 'durationMs',
      title: t('telemetry.columns.duration', 'Duration'),
      noWrap: true,
      render: (event) => (event.durationMs === null ? '—' : formatDuration(event.durationMs)),
    },
    {
      accessor: 'bytesIn',
      title: t('telemetry.columns.bytesIn', 'Received'),
      noWrap: true,
      textAlign: 'right',
      render: (event) => (event.bytesIn === null ? '—' : formatBytes(event.bytesIn)),
    },
    {
      accessor: 'bytesOut',
      title: t('telemetry.columns.bytesOut', 'Sent'),
      noWrap: true,
      textAlign: 'right',
      render: (event) => (event.bytesOut === null ? '—' : formatBytes(event.bytesOut)),
    },
    {
      accessor: 'endpoint',
      title: t('telemetry.columns.endpoint', 'Endpoint'),
      noWrap: true,
      render: (event) => orDash(event.endpoint),
    },
  ];

  const fields = (event: ConnectionEvent): EventField[] => [
    { label: t('telemetry.columns.peer', 'Peer key'), value: orDash(event.peer) },
    { label: t('telemetry.columns.endpoint', 'Endpoint'), value: orDash(event.endpoint) },
    {
      label: t('telemetry.columns.duration', 'Duration'),
      value: event.durationMs === null ? '—' : formatDuration(event.durationMs),
    },
    {
      label: t('telemetry.columns.bytesIn', 'Received'),
      value: event.bytesIn === null ? '—' : formatBytes(event.bytesIn),
    },
    {
      label: t('telemetry.columns.bytesOut', 'Sent'),
      value: event.bytesOut === null ? '—' : formatBytes(event.bytesOut),
    },
  ];

  return (
    <TelemetryScreen<ConnectionEvent, ConnectionAction>
      title={t('telemetry.connections.title', 'Connection status')}
      description={t(
        'telemetry.connections.description',
        'Devices connecting and disconnecting, and tunnels going up and down, as the gateways saw them.',
      )}
      totalText={(count) =>
        t('telemetry.connections.total', {
          count,
          defaultValue_one: '{{count, number}} connection event',
          defaultValue_other: '{{count, number}} connection events',
        })
      }
      tableLabel={t('telemetry.connections.table', 'Connection events')}
      texts={{
        loading: t('telemetry.connections.loading', 'Loading connection events…'),
        empty: t('telemetry.connections.empty', 'No connection events in this time range.'),
        noMatch: t('telemetry.connections.noMatch', 'No connection events match the filters.'),
        perPage: t('telemetry.list.pageSize', 'Events per page'),
      }}
      list={list}
      query={query}
      columns={columns}
      actions={actionLabels}
      onExport={(filters) => exporter.mutate(filters)}
      isExporting={exporter.isPending}
      drawer={{ title: t('telemetry.connections.detail', 'Connection event'), fields }}
      opened={opened}
      onOpen={setOpened}
    />
  );
}
