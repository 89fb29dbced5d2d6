import { Button, Stack } from '@mantine/core';
import type { AdminEvent } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toTableColumns } from '../../../components/list/column-choice';
import { ListToolbar, listTotalText, ServerList } from '../../../components/list/server-list';
import { useListAddress } from '../../../components/list/use-list-address';
import { PageHeader } from '../../../components/ui/page-header';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showMutationError } from '../../../lib/mutation-toast';
import { downloadAdminEvents } from '../api/export-admin-events';
import { useAdminEvents } from '../api/get-admin-events';
import { useEventFacets } from '../api/get-event-facets';
import { EventDetailDrawer } from '../components/event-detail-drawer';
import { EventFilters } from '../components/event-filters';
import { useEventColumns } from '../components/events-table';
import { RetentionPanel } from '../components/retention-panel';
import {
  type EventsListState,
  parseEventsState,
  toFilterQuery,
  toListQuery,
  toSearchParams,
} from '../utils/event-filters';

/** `/events/admin`: every administrator write of the tenant, filtered, paged, with before/after and CSV export. */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canEditRetention = useCan('tenant:update');

  const { state, setState } = useListAddress<EventsListState>({ parse: parseEventsState, toSearchParams });
  const eventsQuery = useAdminEvents(tenant, toListQuery(state));
  const facetsQuery = useEventFacets(tenant);
  const [opened, setOpened] = useState<AdminEvent | null>(null);
  const [isExporting, setExporting] = useState(false);
  const columns = toTableColumns(useEventColumns({ onOpen: setOpened }));

  const handleExport = async () => {
    setExporting(true);
    try {
      await downloadAdminEvents(tenant, toFilterQuery(state));
    } catch (error) {
      showMutationError(t, error, { title: t('events.export.failed', 'The export did not work') });
    } finally {
      setExporting(false);
    }
  };

  const total = eventsQuery.data?.total;
  const hasFilters = Boolean(state.actor || state.action || state.objectType || state.from || state.to);

  return (
    <>
      <PageHeader
        title={t('events.admin.title', 'Admin events')}
        description={
          listTotalText(t, eventsQuery.data, (count) =>
            t('events.list.total', {
              count,
              defaultValue_one: '{{count}} event',
              defaultValue_other: '{{count}} events',
            }),
          ) ??
          t(
            'events.admin.description',
            'Every change made by administrators, with its before and after values.',
          )
        }
        actions={
          <Button
            variant="default"
            onClick={() => void handleExport()}
            loading={isExporting}
            disabled={total === 0}
          >
            {t('events.export.button', 'Export CSV')}
          </Button>
        }
      />
      <Stack gap="md">
        <ListToolbar
          // A filter change starts again at page 1.
          search={
            <EventFilters
              state={state}
              facets={facetsQuery.data}
              onChange={(patch) => setState({ ...patch, page: 1 })}
            />
          }
        />
        <ServerList<AdminEvent>
          query={eventsQuery}
          columns={columns}
          texts={{
            loading: t('events.list.loading', 'Loading events…'),
            empty: t('events.list.empty', 'No administrator activity recorded yet.'),
            noMatch: t('events.list.noMatch', 'No events match the filters.'),
            perPage: t('events.list.pageSize', 'Events per page'),
          }}
          page={state.page}
          pageSize={state.pageSize}
          onPageChange={(page) => setState({ page })}
          onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
          sort={{ column: 'at', order: state.order }}
          onSortChange={({ order }) => setState({ order, page: 1 })}
          isFiltered={hasFilters}
          onRowClick={setOpened}
        />
        {canEditRetention ? <RetentionPanel tenant={tenant} /> : null}
      </Stack>
      <EventDetailDrawer tenant={tenant} event={opened} onClose={() => setOpened(null)} />
    </>
  );
}
