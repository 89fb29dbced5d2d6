import { Drawer, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format-time';
import type { TelemetryEvent } from './event-columns';

/** One field of an event beyond those every event has. */
export interface EventField {
  label: string;
  value: ReactNode;
}

/** Props of {@link EventDrawer}. */
export interface EventDrawerProps<T extends TelemetryEvent> {
  /** The opened row; null when closed. */
  event: T | null;
  title: string;
  actionLabel: (event: T) => string;
  /** The fields of the event's kind (peer, endpoint, duration…), in the order shown. */
  fields: (event: T) => EventField[];
  onClose: () => void;
}

/** A named gateway, user or device with its id under the name; a dash when the event names none. */
function Named({ named }: { named: { id: string; name: string } | null }) {
  if (!named) return <>—</>;
  return (
    <>
      {named.name || named.id}
      <Text size="xs" c="dimmed" ff="monospace">
        {named.id}
      </Text>
    </>
  );
}

/** Every field of one event: when (in full, in the reader's language and time zone), what, where and whose. */
export function EventDrawer<T extends TelemetryEvent>({
  event,
  title,
  actionLabel,
  fields,
  onClose,
}: EventDrawerProps<T>) {
  const { t } = useTranslation();
  const format = useFormatters();
  const rows: EventField[] = event
    ? [
        {
          label: t('telemetry.columns.time', 'Time'),
          value: (
            <time dateTime={event.at}>
              {format.dateTime(event.at, { dateStyle: 'full', timeStyle: 'medium' })}
            </time>
          ),
        },
        { label: t('telemetry.columns.action', 'Action'), value: actionLabel(event) },
        {
          label: t('telemetry.columns.gateway', 'Gateway'),
          value:
            event.source === 'console' ? (
              t('telemetry.consoleSource', 'Console (recorded by Palisade itself)')
            ) : (
              <Named named={event.gateway} />
            ),
        },
        { label: t('telemetry.columns.user', 'User'), value: <Named named={event.user} /> },
        { label: t('telemetry.columns.device', 'Device'), value: <Named named={event.device} /> },
        ...fields(event),
        {
          label: t('telemetry.columns.id', 'Event ID'),
          value: (
            <Text span size="sm" ff="monospace">
              {event.id}
            </Text>
          ),
        },
      ]
    : [];

  return (
    <Drawer
      opened={event !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={title}
      closeButtonProps={{ 'aria-label': t('telemetry.detail.close', 'Close') }}
    >
      {event ? (
        <Table variant="vertical" withTableBorder layout="fixed" aria-label={title}>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.label}>
                <Table.Th w={160} scope="row">
                  {row.label}
                </Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Drawer>
  );
}
