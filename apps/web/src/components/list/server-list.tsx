import 'mantine-datatable/styles.css';
import { Group, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { type MouseEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListPage, PageSize } from '../../lib/list-state';
import { isInteractiveTarget, useDataTablePagination } from '../ui/data-table-pagination';
import { EmptyState, ErrorState, LoadingState } from '../ui/query-state';

// The scaffold of every server-paged list (users, groups, group members, the event log and the lists to come):
// the toolbar (search or filters, the bulk bar of the selection, the column chooser), then the rows in the order
// loading → error → empty → rows, paged and sorted on the server, with a selection that belongs to one page.

/** What the list reads of its TanStack query (a `useQuery` result of a {@link ListPage} fits). */
export interface ListQueryResult<T> {
  data: ListPage<T> | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A list's count in words: `exact` ("12,345 users"), or "About 12,345 users" when the total is the server's
 * estimate (past its exact-count limit). Undefined until the first page is in.
 */
export function listTotalText(
  t: TFunction,
  page: Pick<ListPage<unknown>, 'total' | 'totalIsEstimate'> | undefined,
  exact: (count: number) => string,
): string | undefined {
  if (!page) return undefined;
  const text = exact(page.total);
  return page.totalIsEstimate ? t('common.list.about', 'About {{total}}', { total: text }) : text;
}

/** "3 selected", or "About 12,345 selected" when every row matching an estimated total is selected. */
export function SelectedCount({ count, isEstimate = false }: { count: number; isEstimate?: boolean }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed">
      {isEstimate
        ? t('common.list.selectedAbout', { count, defaultValue: 'About {{count, number}} selected' })
        : t('common.list.selected', { count, defaultValue: '{{count, number}} selected' })}
    </Text>
  );
}

/**
 * The selection of a list. It belongs to one page of one query (`queryId`: the tenant and the query): turning
 * the page, sorting, searching or switching tenant drops it, so a bulk action never reaches rows out of sight.
 */
export function useListSelection<T>(queryId: string) {
  const [selection, setSelection] = useState<{ queryId: string; records: T[] }>({ queryId, records: [] });
  return {
    selected: selection.queryId === queryId ? selection.records : [],
    setSelected: (records: T[]) => setSelection({ queryId, records }),
    clear: () => setSelection({ queryId, records: [] }),
  };
}

/** Props of {@link ListToolbar}. */
export interface ListToolbarProps {
  /** The search box, or a list's filters. */
  search?: ReactNode;
  /** What the selection offers (its count and actions) while rows are selected, or a job's progress. */
  bulkBar?: ReactNode;
  /** Buttons that stay (an export, the column chooser). */
  actions?: ReactNode;
}

/** The row above a list: search or filters first, then the bulk bar and the list's own buttons. Wraps on phones. */
export function ListToolbar({ search, bulkBar, actions }: ListToolbarProps) {
  return (
    <Group justify="space-between" align="flex-end" gap="md">
      {search ?? <span />}
      {bulkBar || actions ? (
        <Group gap="sm" wrap="wrap">
          {bulkBar}
          {actions}
        </Group>
      ) : null}
    </Group>
  );
}

/** The texts of one list. */
export interface ServerListTexts {
  /** "Loading users…" */
  loading: string;
  /** "No users yet." */
  empty: string;
  /** "No users match your search." */
  noMatch: string;
  /** "Users per page" */
  perPage: string;
}

/** Props of {@link ServerList}. */
export interface ServerListProps<T> {
  query: ListQueryResult<T>;
  /** The columns (from {@link useColumnChoice} when the list has a column chooser). */
  columns: DataTableColumn<T>[];
  texts: ServerListTexts;
  /** The table's accessible name ("Connection events"), for a list whose heading does not name it. */
  label?: string;
  /** 1-based. */
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: PageSize) => void;
  /** The server-side order; omit for a list in one fixed order. */
  sort?: { column: string; order: 'asc' | 'desc' };
  /** A newly chosen column starts ascending; the same column again turns around. */
  onSortChange?: (sort: { column: string; order: 'asc' | 'desc' }) => void;
  /** True while searched or filtered: an empty answer then says "no match", not "nothing yet". */
  isFiltered: boolean;
  /** The call to action of an empty, unfiltered list ("Add user"). */
  emptyAction?: ReactNode;
  /** Makes rows selectable; omit when the session may do nothing with a selection. */
  selection?: {
    selected: T[];
    onChange: (records: T[]) => void;
    /** Name of the header checkbox: "Select all users on this page". */
    allLabel: string;
    /** Name of a row's checkbox: "Select Alice Able". */
    rowLabel: (record: T) => string;
  };
  /** What a row click does (links and checkboxes in the row keep their own action). */
  onRowClick?: (record: T) => void;
  /** Shown between a loaded list's error line and its rows (the "select all matching" banner). */
  aboveRows?: ReactNode;
  /** Keeps the first column in view while the table scrolls sideways. */
  pinFirstColumn?: boolean;
  minHeight?: number;
}

/**
 * A server-paged list: loading → error (with retry) → empty (nothing yet, or no match) → rows. Rows stay on
 * screen while the next page loads (the table shows it is fetching), and a failed refresh shows its error above
 * them. Paging and sorting are the caller's (kept in the address or in state); the count under the pages says
 * "of about" when the total is the server's estimate.
 */
export function ServerList<T>({
  query,
  columns,
  texts,
  label,
  page,
  pageSize,
  onPageChange,
  onPageSizeChange,
  sort,
  onSortChange,
  isFiltered,
  emptyAction,
  selection,
  onRowClick,
  aboveRows,
  pinFirstColumn = false,
  minHeight = 160,
}: ServerListProps<T>) {
  const pagination = useDataTablePagination({ isTotalEstimate: query.data?.totalIsEstimate });
  if (query.isPending) return <LoadingState label={texts.loading} />;
  if (query.isError && !query.data) {
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (!query.data) return <LoadingState label={texts.loading} />;
  const data = query.data;
  if (data.total === 0) {
    return (
      <EmptyState
        message={isFiltered ? texts.noMatch : texts.empty}
        action={isFiltered ? null : emptyAction}
      />
    );
  }

  const sorting =
    sort && onSortChange
      ? {
          sortStatus: { columnAccessor: sort.column, direction: sort.order } as DataTableSortStatus<T>,
          onSortStatusChange: (status: DataTableSortStatus<T>) => {
            const column = String(status.columnAccessor);
            // The table keeps the old direction for a newly chosen column; a new column starts ascending.
            onSortChange({ column, order: column === sort.column ? status.direction : 'asc' });
          },
        }
      : {};
  const selecting = selection
    ? {
        selectedRecords: selection.selected,
        onSelectedRecordsChange: selection.onChange,
        allRecordsSelectionCheckboxProps: { 'aria-label': selection.allLabel },
        getRecordSelectionCheckboxProps: (record: T) => ({ 'aria-label': selection.rowLabel(record) }),
      }
    : {};

  return (
    <>
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {aboveRows}
      <DataTable<T>
        aria-label={label}
        withTableBorder
        borderRadius="sm"
        highlightOnHover={onRowClick !== undefined}
        minHeight={minHeight}
        records={data.items}
        columns={columns}
        idAccessor={'id' as keyof T & string}
        fetching={query.isFetching}
        loadingText={texts.loading}
        noRecordsText={texts.noMatch}
        pinFirstColumn={pinFirstColumn}
        page={page}
        onPageChange={onPageChange}
        totalRecords={data.total}
        recordsPerPage={pageSize}
        onRecordsPerPageChange={(size) => onPageSizeChange(size as PageSize)}
        recordsPerPageLabel={texts.perPage}
        {...pagination}
        {...sorting}
        {...(onRowClick
          ? {
              onRowClick: ({ record, event }: { record: T; event: MouseEvent }) => {
                if (!isInteractiveTarget(event)) onRowClick(record);
              },
            }
          : {})}
        {...selecting}
      />
    </>
  );
}
