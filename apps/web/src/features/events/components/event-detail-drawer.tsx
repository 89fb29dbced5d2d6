import { Drawer, Stack, Table, Text, Title } from '@mantine/core';
import type { AdminEvent } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/ui/query-state';
import { useAdminEvent } from '../api/get-admin-event';
import { EventDiff } from './event-diff';
import { useEventLabels } from './event-labels';

/** Props of {@link EventDetailDrawer}. */
export interface EventDetailDrawerProps {
  tenant: string;
  /** The row that was opened (shown at once); null when closed. */
  event: AdminEvent | null;
  onClose: () => void;
}

/** One event: who did what to which object, when and from where, and the before/after comparison. */
export function EventDetailDrawer({ tenant, event, onClose }: EventDetailDrawerProps) {
  const { t, i18n } = useTranslation();
  const { actionLabel, objectTypeLabel } = useEventLabels();
  const detailQuery = useAdminEvent(tenant, event?.id ?? null);
  const dateFormat = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? i18n.language, {
    dateStyle: 'full',
    timeStyle: 'medium',
  });

  return (
    <Drawer
      opened={event !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={t('events.detail.title', 'Event details')}
      closeButtonProps={{ 'aria-label': t('events.detail.close', 'Close') }}
    >
      {event ? (
        <Stack gap="lg">
          <Table variant="vertical" withTableBorder layout="fixed">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={160}>{t('events.columns.time', 'Time')}</Table.Th>
                <Table.Td>
                  <time dateTime={event.at}>{dateFormat.format(new Date(event.at))}</time>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('events.columns.actor', 'Actor')}</Table.Th>
                <Table.Td>{event.actor}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('events.columns.action', 'Action')}</Table.Th>
                <Table.Td>
                  {actionLabel(event.action)}{' '}
                  <Text span size="xs" c="dimmed" ff="monospace">
                    {event.action}
                  </Text>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('events.columns.object', 'Object')}</Table.Th>
                <Table.Td>
                  {objectTypeLabel(event.objectType)}
                  {event.objectName ? `: ${event.objectName}` : ''}
                  {event.objectId ? (
                    <Text size="xs" c="dimmed" ff="monospace">
                      {event.objectId}
                    </Text>
                  ) : null}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('events.columns.ip', 'IP address')}</Table.Th>
                <Table.Td>{event.ip ?? '—'}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('events.detail.changes', 'Before and after')}
            </Title>
            <QueryState query={detailQuery}>
              {(detail) => <EventDiff before={detail.before} after={detail.after} />}
            </QueryState>
          </Stack>
        </Stack>
      ) : null}
    </Drawer>
  );
}
