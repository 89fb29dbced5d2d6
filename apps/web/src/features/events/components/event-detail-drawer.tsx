import { Drawer, Stack, Table, Text, Title } from '@mantine/core';
import type { AdminEvent, AdminEventDetail } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/ui/query-state';
import { useAuditLabels } from '../../../lib/audit-labels';
import { useFormatters } from '../../../lib/format-time';
import { useAdminEvent } from '../api/get-admin-event';
import { useAuditNames } from '../api/get-audit-names';
import { referencedIds } from '../utils/audit-values';
import { EventDiff } from './event-diff';

/** The comparison of one loaded event, with the names its values refer to looked up. */
function EventChanges({ tenant, detail }: { tenant: string; detail: AdminEventDetail }) {
  const { kinds, userIds } = referencedIds([detail.before, detail.after]);
  const names = useAuditNames(tenant, kinds, userIds);
  return (
    <EventDiff
      before={detail.before}
      after={detail.after}
      action={detail.action}
      objectType={detail.objectType}
      names={names}
    />
  );
}

/** Props of {@link EventDetailDrawer}. */
export interface EventDetailDrawerProps {
  tenant: string;
  /** The row that was opened (shown at once); null when closed. */
  event: AdminEvent | null;
  onClose: () => void;
}

/** One event: who did what to which object, when and from where, and the before/after comparison. */
export function EventDetailDrawer({ tenant, event, onClose }: EventDetailDrawerProps) {
  const { t } = useTranslation();
  const { actionLabel, objectTypeLabel, objectName } = useAuditLabels();
  const detailQuery = useAdminEvent(tenant, event?.id ?? null);
  const format = useFormatters();

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
                  <time dateTime={event.at}>
                    {format.dateTime(event.at, { dateStyle: 'full', timeStyle: 'medium' })}
                  </time>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('events.columns.actor', 'Actor')}</Table.Th>
                <Table.Td>
                  {event.actor}
                  {event.actingFrom &&
                    ` — ${t('events.actingFrom', 'Partner {{partner}}, acting in this tenant', { partner: event.actingFrom })}`}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('events.columns.action', 'Action')}</Table.Th>
                <Table.Td>{actionLabel(event.action)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('events.columns.object', 'Object')}</Table.Th>
                <Table.Td>
                  {objectTypeLabel(event.objectType)}
                  {objectName(event) ? `: ${objectName(event)}` : ''}
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
              {(detail) => <EventChanges tenant={tenant} detail={detail} />}
            </QueryState>
          </Stack>
        </Stack>
      ) : null}
    </Drawer>
  );
}
