import { isInteractiveTarget, useDataTablePagination } from '../../../components/ui/data-table-pagination';
import 'mantine-datatable/styles.css';
import { Anchor, Button, Text } from '@mantine/core';
import type { GROUP_SORTS, Group } from '@palisade/contracts';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

/** A sortable column of the groups list (the contract's `sort` values). */
export type GroupSort = (typeof GROUP_SORTS)[number];

/** Sort column and direction. */
export interface GroupsSort {
  sort: GroupSort;
  order: 'asc' | 'desc';
}

/** Props of {@link GroupsTable}. */
export interface GroupsTableProps {
  groups: Group[];
  /** Groups matching the search, across all pages. */
  total: number;
  /** `total` is the server's estimate (past the exact-count limit): shown as "about". */
  isTotalEstimate?: boolean;
  /** 1-based page number. */
  page: number;
  pageSize: number;
  sort: GroupsSort;
  /** True while a new page loads over the current one. */
  isFetching?: boolean;
  /** Selected groups; omit to hide the selection column (no delete right). */
  selected?: Group[];
  onSelectedChange?: (groups: Group[]) => void;
  /** Shows the per-row "Copy" action. */
  canCopy?: boolean;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  onSortChange: (sort: GroupsSort) => void;
}

/**
 * The groups table: server-paged and server-sorted, with optional multi-select and a per-row copy action. A
 * row click opens the group; the name is also a link, so keyboard users reach each group by Tab.
 */
export function GroupsTable({
  groups,
  total,
  isTotalEstimate = false,
  page,
  pageSize,
  sort,
  isFetching = false,
  selected,
  onSelectedChange,
  canCopy = false,
  onPageChange,
  onPageSizeChange,
  onSortChange,
}: GroupsTableProps) {
  const { t, i18n } = useTranslation();
  const pagination = useDataTablePagination({ isTotalEstimate });
  const navigate = useNavigate();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const numberFormat = new Intl.NumberFormat(locale);

  const columns: DataTableColumn<Group>[] = [
    {
      accessor: 'name',
      title: t('groups.columns.name', 'Name'),
      sortable: true,
      noWrap: true,
      render: (group) => (
        <Anchor component={Link} to={`/groups/${group.id}`} fw={500}>
          {group.name}
        </Anchor>
      ),
    },
    {
      accessor: 'description',
      title: t('groups.columns.description', 'Description'),
      render: (group) =>
        group.description ? (
          <Text size="sm" lineClamp={2}>
            {group.description}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      accessor: 'memberCount',
      title: t('groups.columns.memberCount', 'Members'),
      sortable: true,
      textAlign: 'right',
      render: (group) => numberFormat.format(group.memberCount),
    },
    {
      accessor: 'createdAt',
      title: t('groups.columns.createdAt', 'Created'),
      sortable: true,
      noWrap: true,
      render: (group) => dateFormat.format(new Date(group.createdAt)),
    },
    {
      accessor: 'actions',
      title: t('groups.columns.actions', 'Actions'),
      hidden: !canCopy,
      textAlign: 'right',
      render: (group) => (
        <Button
          component={Link}
          to={`/groups/${group.id}/copy`}
          size="compact-sm"
          variant="subtle"
          aria-label={t('groups.list.copyGroup', 'Copy {{name}}', { name: group.name })}
        >
          {t('groups.list.copy', 'Copy')}
        </Button>
      ),
    },
  ];
  const sortStatus: DataTableSortStatus<Group> = { columnAccessor: sort.sort, direction: sort.order };
  const selection =
    selected && onSelectedChange
      ? {
          selectedRecords: selected,
          onSelectedRecordsChange: onSelectedChange,
          allRecordsSelectionCheckboxProps: {
            'aria-label': t('groups.list.selectAll', 'Select all groups on this page'),
          },
          getRecordSelectionCheckboxProps: (group: Group) => ({
            'aria-label': t('groups.list.selectGroup', 'Select {{name}}', { name: group.name }),
          }),
        }
      : {};

  return (
    <DataTable<Group>
      withTableBorder
      borderRadius="sm"
      highlightOnHover
      minHeight={160}
      records={groups}
      columns={columns}
      idAccessor="id"
      fetching={isFetching}
      loadingText={t('groups.list.loading', 'Loading groups…')}
      noRecordsText={t('groups.list.noMatch', 'No groups match your search.')}
      sortStatus={sortStatus}
      onSortStatusChange={(status) => {
        const column = status.columnAccessor as GroupSort;
        // The table keeps the old direction for a newly chosen column; a new column starts ascending.
        onSortChange({ sort: column, order: column === sort.sort ? status.direction : 'asc' });
      }}
      page={page}
      onPageChange={onPageChange}
      totalRecords={total}
      recordsPerPage={pageSize}
      onRecordsPerPageChange={onPageSizeChange}
      recordsPerPageLabel={t('groups.list.pageSize', 'Groups per page')}
      {...pagination}
      onRowClick={({ record, event }) => {
        if (!isInteractiveTarget(event)) navigate(`/groups/${record.id}`);
      }}
      {...selection}
    />
  );
}
