import { Text } from '@mantine/core';
import { DEVICE_EVENT_ACTIONS, type DeviceEvent, type DeviceEventAction } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '../../../components/list/column-choice';
import { useWorkingTenant } from '../../../lib/auth';
import { useExportEvents } from '../api/export-events';
import { useDeviceEvents } from '../api/get-device-events';
import { useCommonColumns } from '../components/event-columns';
import type { EventField } from '../components/event-drawer';
import { useDeviceEventActionLabels } from '../components/labels';
import { TelemetryScreen, useTelemetryList } from '../components/telemetry-screen';
import { telemetryListCodec } from '../utils/event-filters';

const codec = telemetryListCodec(DEVICE_EVENT_ACTIONS);

/**
 * `/events/device-events`: devices enrolled, keys rotated, posture changed and agents upgraded — newest first,
 * paged on the server, filtered by time range, user, device, gateway and action (kept in the address), each row
 * opening its details, the filtered set exported as CSV.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const actionLabels = useDeviceEventActionLabels();
  const list = useTelemetryList(codec);
  const query = useDeviceEvents(tenant, list.listQuery);
  const exporter = useExportEvents(tenant, 'devices');
  const [opened, setOpened] = useState<DeviceEvent | null>(null);

  const common = useCommonColumns<DeviceEvent>({
    actionLabel: (event) => actionLabels[event.action],
    onOpen: setOpened,
  });
  const columns: ListColumn<DeviceEvent>[] = [
    common.time,
    common.action,
    common.device,
    common.user,
    common.gateway,
    {
      accessor: 'detail',
      title: t('telemetry.columns.detail', 'Detail'),
      render: (event) =>
        event.detail ? (
          <Text span size="sm" lineClamp={2}>
            {event.detail}
          </Text>
        ) : (
          '—'
        ),
    },
  ];

  const fields = (event: DeviceEvent): EventField[] => [
    { label: t('telemetry.columns.detail', 'Detail'), value: event.detail ?? '—' },
  ];

  return (
    <TelemetryScreen<DeviceEvent, DeviceEventAction>
      title={t('telemetry.devices.title', 'Device events')}
      description={t(
        'telemetry.devices.description',
        'Devices enrolled, keys rotated, posture changed and agents upgraded.',
      )}
      totalText={(count) =>
        t('telemetry.devices.total', {
          count,
          defaultValue_one: '{{count, number}} device event',
          defaultValue_other: '{{count, number}} device events',
        })
      }
      tableLabel={t('telemetry.devices.table', 'Device events')}
      texts={{
        loading: t('telemetry.devices.loading', 'Loading device events…'),
        empty: t('telemetry.devices.empty', 'No device events in this time range.'),
        noMatch: t('telemetry.devices.noMatch', 'No device events match the filters.'),
        perPage: t('telemetry.list.pageSize', 'Events per page'),
      }}
      list={list}
      query={query}
      columns={columns}
      actions={actionLabels}
      onExport={(filters) => exporter.mutate(filters)}
      isExporting={exporter.isPending}
      drawer={{ title: t('telemetry.devices.detail', 'Device event'), fields }}
      opened={opened}
      onOpen={setOpened}
    />
  );
}
