import { Anchor, Stack, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useAuditLabels } from '../../../lib/audit-labels';
import { useWorkingTenant } from '../../../lib/auth';
import { useFormatters } from '../../../lib/format-time';
import { useAdminEvents } from '../api/get-admin-events';

/** How many of an object's latest events its page shows. */
export const RECENT_ACTIVITY = 10;

/**
 * The latest changes to one object (a user's Activity tab), newest first, labelled as the event log labels them,
 * with the way to the whole log.
 */
export function ObjectActivity({ objectId, logSearch }: { objectId: string; logSearch: string }) {
  const { t } = useTranslation();
  const labels = useAuditLabels();
  const tenant = useWorkingTenant();
  const query = useAdminEvents(tenant, { objectId, limit: RECENT_ACTIVITY, order: 'desc' });
  const format = useFormatters();
  if (query.isPending) return <LoadingState label={t('events.activity.loading', 'Loading activity…')} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.items.length === 0) {
    return <EmptyState message={t('events.activity.none', 'No changes recorded yet.')} />;
  }
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={480}>
        <Table striped withTableBorder captionSide="top">
          <Table.Caption>{t('events.activity.caption', 'Latest changes')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('events.columns.time', 'Time')}</Table.Th>
              <Table.Th scope="col">{t('events.columns.action', 'Action')}</Table.Th>
              <Table.Th scope="col">{t('events.columns.actor', 'Actor')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.items.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td>{format.dateTime(event.at)}</Table.Td>
                <Table.Td>{labels.actionLabel(event.action)}</Table.Td>
                <Table.Td>{event.actor}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Anchor component={Link} to={`/events/admin?q=${encodeURIComponent(logSearch)}`} size="sm">
        {t('events.activity.all', 'Open the event log')}
      </Anchor>
    </Stack>
  );
}
