import { Button, Stack } from '@mantine/core';
import type { AdminEvent } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { errorMessageKey, RateLimitError } from '../../../lib/api-client';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { notify } from '../../../lib/notify';
import { downloadAdminEvents } from '../api/export-admin-events';
import { useAdminEvents } from '../api/get-admin-events';
import { useEventFacets } from '../api/get-event-facets';
import { EventDetailDrawer } from '../components/event-detail-drawer';
import { EventFilters } from '../components/event-filters';
import { EventsTable } from '../components/events-table';
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

  const [searchParams, setSearchParams] = useSearchParams();
  const state = parseEventsState(searchParams);
  const eventsQuery = useAdminEvents(tenant, toListQuery(state));
  const facetsQuery = useEventFacets(tenant);
  const [opened, setOpened] = useState<AdminEvent | null>(null);
  const [isExporting, setExporting] = useState(false);

  /** Paging and order keep the filters; a filter change starts again at page 1. */
  const setState = (patch: Partial<EventsListState>, isFilter = false) =>
    setSearchParams((current) =>
      toSearchParams({ ...parseEventsState(current), ...patch, ...(isFilter ? { page: 1 } : {}) }),
    );

  const handleExport = async () => {
    setExporting(true);
    try {
      await downloadAdminEvents(tenant, toFilterQuery(state));
    } catch (error) {
      if (!(error instanceof RateLimitError)) {
        notify(t(errorMessageKey(error), t('error.genericFetchErrorText')), {
          color: 'red',
          title: t('events.export.failed', 'The export did not work'),
        });
      }
    } finally {
      setExporting(false);
    }
  };

  const total = eventsQuery.data?.total;
  const hasFilters = Boolean(state.actor || state.action || state.objectType || state.from || state.to);

  const renderBody = () => {
    if (eventsQuery.isPending) return <LoadingState label={t('events.list.loading', 'Loading events…')} />;
    if (eventsQuery.isError && !eventsQuery.data) {
      return <ErrorState error={eventsQuery.error} onRetry={() => void eventsQuery.refetch()} />;
    }
    const page = eventsQuery.data;
    if (page.total === 0) {
      return (
        <EmptyState
          message={
            hasFilters
              ? t('events.list.noMatch', 'No events match the filters.')
              : t('events.list.empty', 'No administrator activity recorded yet.')
          }
        />
      );
    }
    return (
      <>
        {eventsQuery.isError ? (
          <ErrorState error={eventsQuery.error} onRetry={() => void eventsQuery.refetch()} />
        ) : null}
        <EventsTable
          events={page.items}
          total={page.total}
          isTotalEstimate={page.totalIsEstimate}
          page={state.page}
          pageSize={state.pageSize}
          order={state.order}
          isFetching={eventsQuery.isFetching}
          onPageChange={(next) => setState({ page: next })}
          onPageSizeChange={(size) => setState({ pageSize: size as EventsListState['pageSize'], page: 1 })}
          onOrderChange={(order) => setState({ order, page: 1 })}
          onOpen={setOpened}
        />
      </>
    );
  };

  return (
    <>
      <PageHeader
        title={t('events.admin.title', 'Admin events')}
        description={
          total === undefined
            ? t(
                'events.admin.description',
                'Every change made by administrators, with its before and after values.',
              )
            : t('events.list.total', {
                count: total,
                defaultValue_one: '{{count}} event',
                defaultValue_other: '{{count}} events',
              })
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
        <EventFilters state={state} facets={facetsQuery.data} onChange={(patch) => setState(patch, true)} />
        {renderBody()}
        {canEditRetention ? <RetentionPanel tenant={tenant} /> : null}
      </Stack>
      <EventDetailDrawer tenant={tenant} event={opened} onClose={() => setOpened(null)} />
    </>
  );
}
