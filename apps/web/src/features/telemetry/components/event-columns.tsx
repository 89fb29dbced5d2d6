import { Anchor, Text } from '@mantine/core';
import type { ConnectionEvent, DeviceEvent } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '../../../components/list/column-choice';
import { RelativeTime } from '../../../components/ui/relative-time';
import { useFormatters } from '../../../lib/format-time';
import { NamedCell } from './labels';

/** A row of either event screen. */
export type TelemetryEvent = ConnectionEvent | DeviceEvent;

/** Options of {@link useCommonColumns}. */
export interface CommonColumnsOptions<T extends TelemetryEvent> {
  /** The action of a row in words. */
  actionLabel: (event: T) => string;
  /** Opens a row's details. */
  onOpen: (event: T) => void;
}

/**
 * The columns both event screens have: the time (the one sort, kept on phones), the action in words (a button
 * that opens the details, kept on phones), and the user, device and gateway by name.
 */
export function useCommonColumns<T extends TelemetryEvent>({ actionLabel, onOpen }: CommonColumnsOptions<T>) {
  const { t } = useTranslation();
  const format = useFormatters();
  const time: ListColumn<T> = {
    accessor: 'at',
    title: t('telemetry.columns.time', 'Time'),
    sortable: true,
    noWrap: true,
    isEssential: true,
    render: (event) => <RelativeTime value={event.at} withTooltip size="sm" />,
  };
  const action: ListColumn<T> = {
    accessor: 'action',
    title: t('telemetry.columns.action', 'Action'),
    isEssential: true,
    noWrap: true,
    render: (event) => (
      <Anchor
        component="button"
        type="button"
        size="sm"
        ta="start"
        onClick={() => onOpen(event)}
        aria-label={t('telemetry.list.open', 'Details of {{action}} at {{time}}', {
          action: actionLabel(event),
          time: format.dateTime(event.at, { timeStyle: 'medium' }),
        })}
      >
        {actionLabel(event)}
      </Anchor>
    ),
  };
  const user: ListColumn<T> = {
    accessor: 'user',
    title: t('telemetry.columns.user', 'User'),
    render: (event) => <NamedCell named={event.user} />,
  };
  const device: ListColumn<T> = {
    accessor: 'device',
    title: t('telemetry.columns.device', 'Device'),
    render: (event) => <NamedCell named={event.device} />,
  };
  const gateway: ListColumn<T> = {
    accessor: 'gateway',
    title: t('telemetry.columns.gateway', 'Gateway'),
    render: (event) =>
      event.source === 'console' ? (
        <Text span size="sm">
          {t('telemetry.console', 'Console')}
        </Text>
      ) : (
        <NamedCell named={event.gateway} />
      ),
  };
  return { time, action, user, device, gateway };
}
