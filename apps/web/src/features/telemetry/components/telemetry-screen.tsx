import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumn, toTableColumns } from '../../../components/list/column-choice';
import {
  type ListQueryResult,
  ListToolbar,
  listTotalText,
  ServerList,
  type ServerListTexts,
} from '../../../components/list/server-list';
import { type ListAddressCodec, useListAddress } from '../../../components/list/use-list-address';
import { PageHeader } from '../../../components/ui/page-header';
import {
  isNarrowed,
  type TelemetryFilterQuery,
  type TelemetryFilters,
  type TelemetryListState,
  toFilterQuery,
  toListQuery,
} from '../utils/event-filters';
import type { TelemetryEvent } from './event-columns';
import { EventDrawer, type EventField } from './event-drawer';
import { EventFilters } from './event-filters';

/**
 * An event screen's state in the address, with the moment its time range ends: a preset ("last hour") counts
 * back from when the filters were last changed, so the pages of one filter ask for the same range and each page
 * continues after the last one's cursor.
 */
export function useTelemetryList<A extends string>(codec: ListAddressCodec<TelemetryListState<A>>) {
  const { state, setState } = useListAddress(codec);
  const [nowMs, setNowMs] = useState(Date.now);
  const setFilters = (patch: Partial<TelemetryFilters<A>>) => {
    setNowMs(Date.now());
    setState({ ...patch, page: 1 });
  };
  return {
    state,
    setState,
    setFilters,
    listQuery: toListQuery(state, nowMs),
    filterQuery: toFilterQuery(state, nowMs),
  };
}

/** Names of the users, devices and gateways on a page, by id. */
function namesOf(events: readonly TelemetryEvent[]): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const event of events) {
    for (const named of [event.user, event.device, event.gateway]) if (named) names.set(named.id, named.name);
  }
  return names;
}

/** Props of {@link TelemetryScreen}. */
export interface TelemetryScreenProps<T extends TelemetryEvent, A extends string> {
  title: string;
  description: string;
  /** "12 connection events". */
  totalText: (count: number) => string;
  /** The accessible name of the table. */
  tableLabel: string;
  texts: ServerListTexts;
  list: ReturnType<typeof useTelemetryList<A>>;
  query: ListQueryResult<T>;
  columns: ListColumn<T>[];
  /** The screen's actions with their labels. */
  actions: Record<A, string>;
  /** Downloads the CSV of the filters. */
  onExport: (query: TelemetryFilterQuery<A>) => void;
  isExporting: boolean;
  /** The drawer of an opened row. */
  drawer: { title: string; fields: (event: T) => EventField[] };
  /** The event opened in the drawer, and how to open one (the action button of its row, or a click on it). */
  opened: T | null;
  onOpen: (event: T | null) => void;
}

/**
 * The scaffold of both event screens: title with the count and the CSV export of the filters, the filters, the
 * server-paged rows (newest first, the order turned by the time column) and the drawer of an opened row.
 */
export function TelemetryScreen<T extends TelemetryEvent, A extends string>({
  title,
  description,
  totalText,
  tableLabel,
  texts,
  list,
  query,
  columns,
  actions,
  onExport,
  isExporting,
  drawer,
  opened,
  onOpen,
}: TelemetryScreenProps<T, A>) {
  const { t } = useTranslation();
  const { state, setState, setFilters, filterQuery } = list;
  const actionLabel = (event: T) => actions[event.action as A] ?? event.action;
  const knownNames = query.data ? namesOf(query.data.items) : query.isError ? new Map() : null;

  return (
    <>
      <PageHeader
        title={title}
        description={listTotalText(t, query.data, totalText) ?? description}
        actions={
          <Button
            variant="default"
            loading={isExporting}
            disabled={query.data?.total === 0}
            onClick={() => onExport(filterQuery)}
          >
            {t('telemetry.export.button', 'Export CSV')}
          </Button>
        }
      />
      <Stack gap="md">
        <ListToolbar
          search={
            <EventFilters filters={state} actions={actions} knownNames={knownNames} onChange={setFilters} />
          }
        />
        <ServerList<T>
          label={tableLabel}
          query={query}
          columns={toTableColumns(columns)}
          texts={texts}
          page={state.page}
          pageSize={state.pageSize}
          onPageChange={(page) => setState({ page })}
          onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
          sort={{ column: 'at', order: state.order }}
          onSortChange={({ order }) => setState({ order, page: 1 })}
          isFiltered={isNarrowed(state)}
          emptyAction={
            state.range !== '30d' && state.range !== 'custom' ? (
              <Button variant="light" onClick={() => setFilters({ range: '30d' })}>
                {t('telemetry.list.showMonth', 'Show the last 30 days')}
              </Button>
            ) : null
          }
          onRowClick={onOpen}
        />
      </Stack>
      <EventDrawer<T>
        event={opened}
        title={drawer.title}
        actionLabel={actionLabel}
        fields={drawer.fields}
        onClose={() => onOpen(null)}
      />
    </>
  );
}
