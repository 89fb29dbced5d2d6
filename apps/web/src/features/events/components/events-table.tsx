import { isInteractiveTarget, useDataTablePagination } from '../../../components/ui/data-table-pagination';
import 'mantine-datatable/styles.css';
import { Anchor, Text } from '@mantine/core';
import type { AdminEvent } from '@palisade/contracts';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { useAuditLabels } from '../../../lib/audit-labels';
import { EventTime } from './event-time';

/** Props of {@link EventsTable}. */
export interface EventsTableProps {
  events: AdminEvent[];
  total: number;
  /** `total` is the server's estimate (past the exact-count limit): shown as "about". */
  isTotalEstimate?: boolean;
  /** 1-based. */
  page: number;
  pageSize: number;
  order: 'asc' | 'desc';
  isFetching?: boolean;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  onOrderChange: (order: 'asc' | 'desc') => void;
  onOpen: (event: AdminEvent) => void;
}

/** The admin event log, server-paged and sorted by time; the action opens the event's details. */
export function EventsTable({
  events,
  total,
  isTotalEstimate = false,
  page,
  pageSize,
  order,
  isFetching = false,
  onPageChange,
  onPageSizeChange,
  onOrderChange,
  onOpen,
}: EventsTableProps) {
  const { t } = useTranslation();
  const pagination = useDataTablePagination({ isTotalEstimate });
  const { actionLabel, objectTypeLabel, objectName } = useAuditLabels();

  const columns: DataTableColumn<AdminEvent>[] = [
    {
      accessor: 'at',
      title: t('events.columns.time', 'Time'),
      sortable: true,
      noWrap: true,
      render: (event) => <EventTime at={event.at} />,
    },
    { accessor: 'actor', title: t('events.columns.actor', 'Actor'), noWrap: true },
    {
      accessor: 'action',
      title: t('events.columns.action', 'Action'),
      render: (event) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => onOpen(event)}
          aria-label={t('events.list.open', 'Details of {{action}} at {{time}}', {
            action: actionLabel(event.action),
            time: event.at,
          })}
        >
          {actionLabel(event.action)}
        </Anchor>
      ),
    },
    {
      accessor: 'objectName',
      title: t('events.columns.object', 'Object'),
      render: (event) => (
        <div>
          <Text size="sm">{objectName(event) ?? event.objectId ?? '—'}</Text>
          <Text size="xs" c="dimmed">
            {objectTypeLabel(event.objectType)}
          </Text>
        </div>
      ),
    },
    {
      accessor: 'ip',
      title: t('events.columns.ip', 'IP address'),
      noWrap: true,
      render: (event) => event.ip ?? '—',
    },
  ];

  return (
    <DataTable<AdminEvent>
      withTableBorder
      borderRadius="sm"
      highlightOnHover
      minHeight={160}
      records={events}
      columns={columns}
      idAccessor="id"
      fetching={isFetching}
      loadingText={t('events.list.loading', 'Loading events…')}
      noRecordsText={t('events.list.noMatch', 'No events match the filters.')}
      sortStatus={{ columnAccessor: 'at', direction: order }}
      onSortStatusChange={(status) => onOrderChange(status.direction)}
      page={page}
      onPageChange={onPageChange}
      totalRecords={total}
      recordsPerPage={pageSize}
      onRecordsPerPageChange={onPageSizeChange}
      recordsPerPageLabel={t('events.list.pageSize', 'Events per page')}
      {...pagination}
      onRowClick={({ record, event }) => {
        if (!isInteractiveTarget(event)) onOpen(record);
      }}
    />
  );
}
