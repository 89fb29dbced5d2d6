import { isInteractiveTarget, useDataTablePagination } from '../../../components/ui/data-table-pagination';
import 'mantine-datatable/styles.css';
import { Anchor, Badge, Box, Button, CheckIcon, CloseIcon, Text } from '@mantine/core';
import type { CONN_STATUSES, USER_SORTS, User } from '@palisade/contracts';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

/** A sortable column of the users list (the contract's `sort` values). */
export type UserSort = (typeof USER_SORTS)[number];

/** Sort column and direction. */
export interface UsersSort {
  sort: UserSort;
  order: 'asc' | 'desc';
}

/** One of the connection statuses of spec §4. */
export type ConnStatus = (typeof CONN_STATUSES)[number];

const CONN_COLORS: Record<ConnStatus, string> = { connected: 'green', disconnected: 'orange', never: 'gray' };

/** Props of {@link UsersTable}. */
export interface UsersTableProps {
  users: User[];
  /** Users matching the search, across all pages. */
  total: number;
  /** `total` is the server's estimate (past the exact-count limit): shown as "about". */
  isTotalEstimate?: boolean;
  /** 1-based page number. */
  page: number;
  pageSize: number;
  sort: UsersSort;
  /** Group id → name, for the groups column. */
  groupNames: ReadonlyMap<string, string>;
  /** True while a new page loads over the current one. */
  isFetching?: boolean;
  /** Selected users; omit to hide the selection column (no delete right). */
  selected?: User[];
  onSelectedChange?: (users: User[]) => void;
  /** Shows the per-row "Copy" action. */
  canCopy?: boolean;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  onSortChange: (sort: UsersSort) => void;
}

/** Connection status as translated text on a colour badge. */
export function ConnStatusBadge({ status }: { status: ConnStatus }) {
  const { t } = useTranslation();
  const labels: Record<ConnStatus, string> = {
    connected: t('users.connstatus.connected', 'Connected'),
    disconnected: t('users.connstatus.disconnected', 'Disconnected'),
    never: t('users.connstatus.never', 'Never connected'),
  };
  return (
    <Badge color={CONN_COLORS[status]} variant="light" radius="sm">
      {labels[status]}
    </Badge>
  );
}

/** A yes/no flag as an icon with an accessible label such as "Private access: yes". */
export function FlagIcon({ value, label }: { value: boolean; label: string }) {
  const { t } = useTranslation();
  const text = `${label}: ${value ? t('users.flag.yes', 'yes') : t('users.flag.no', 'no')}`;
  return (
    <Box
      component="span"
      role="img"
      aria-label={text}
      title={text}
      c={value ? 'green' : 'dimmed'}
      style={{ display: 'inline-flex' }}
    >
      {value ? <CheckIcon size={14} aria-hidden /> : <CloseIcon size="14" aria-hidden />}
    </Box>
  );
}

/** The IMSI of a user: readable for the null protection scheme, "concealed" otherwise, a dash without SUCI. */
export function imsiText(user: Pick<User, 'imsi' | 'suci'>, concealed: string): string {
  if (user.imsi) return user.imsi;
  return user.suci ? concealed : '—';
}

/**
 * The users table: server-paged and server-sorted, with optional multi-select and a per-row copy action.
 * A row click opens the user; the full name is also a link, so keyboard users reach each user by Tab.
 */
export function UsersTable({
  users,
  total,
  isTotalEstimate = false,
  page,
  pageSize,
  sort,
  groupNames,
  isFetching = false,
  selected,
  onSelectedChange,
  canCopy = false,
  onPageChange,
  onPageSizeChange,
  onSortChange,
}: UsersTableProps) {
  const { t, i18n } = useTranslation();
  const pagination = useDataTablePagination({ isTotalEstimate });
  const navigate = useNavigate();
  const dateFormat = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? i18n.language, { dateStyle: 'medium' });
  const privateAccess = t('users.columns.isprvaccess', 'Private access');
  const internetAccess = t('users.columns.issiauser', 'Internet access');
  const xdr = t('users.columns.isxdrenabled', 'XDR');
  const concealed = t('users.imsi.concealed', 'Concealed');

  const columns: DataTableColumn<User>[] = [
    {
      accessor: 'fullname',
      title: t('users.columns.fullname', 'Full name'),
      sortable: true,
      noWrap: true,
      render: (user) => (
        <Anchor component={Link} to={`/users/${user.id}`} fw={500}>
          {user.fullname}
        </Anchor>
      ),
    },
    {
      accessor: 'username',
      title: t('users.columns.username', 'Username'),
      sortable: true,
      noWrap: true,
      render: (user) => (
        <div>
          <Text size="sm">{user.username}</Text>
          <Text size="xs" c="dimmed">
            {user.shortname}
          </Text>
        </div>
      ),
    },
    { accessor: 'email', title: t('users.columns.email', 'E-mail'), sortable: true, noWrap: true },
    {
      accessor: 'groups',
      title: t('users.columns.groups', 'Groups'),
      render: (user) =>
        user.groups
          .map((id) => groupNames.get(id))
          .filter((name): name is string => name !== undefined)
          .join(', ') || '—',
    },
    {
      accessor: 'connstatus',
      title: t('users.columns.connstatus', 'Connection status'),
      sortable: true,
      noWrap: true,
      render: (user) => <ConnStatusBadge status={user.connstatus} />,
    },
    {
      accessor: 'isprvaccess',
      title: privateAccess,
      textAlign: 'center',
      render: (user) => <FlagIcon value={user.isprvaccess} label={privateAccess} />,
    },
    {
      accessor: 'issiauser',
      title: internetAccess,
      textAlign: 'center',
      render: (user) => <FlagIcon value={user.issiauser} label={internetAccess} />,
    },
    {
      accessor: 'isxdrenabled',
      title: xdr,
      textAlign: 'center',
      render: (user) => <FlagIcon value={user.isxdrenabled} label={xdr} />,
    },
    {
      accessor: 'imsi',
      title: t('users.columns.imsi', 'IMSI'),
      render: (user) => (
        <Text size="sm" ff={user.imsi ? 'monospace' : undefined} c={user.imsi ? undefined : 'dimmed'}>
          {imsiText(user, concealed)}
        </Text>
      ),
    },
    {
      accessor: 'createdAt',
      title: t('users.columns.createdAt', 'Created'),
      sortable: true,
      noWrap: true,
      render: (user) => dateFormat.format(new Date(user.createdAt)),
    },
    {
      accessor: 'actions',
      title: t('users.columns.actions', 'Actions'),
      hidden: !canCopy,
      textAlign: 'right',
      render: (user) => (
        <Button
          component={Link}
          to={`/users/${user.id}/copy`}
          size="compact-sm"
          variant="subtle"
          aria-label={t('users.list.copyUser', 'Copy {{name}}', { name: user.fullname })}
        >
          {t('users.list.copy', 'Copy')}
        </Button>
      ),
    },
  ];
  const sortStatus: DataTableSortStatus<User> = { columnAccessor: sort.sort, direction: sort.order };
  const selection =
    selected && onSelectedChange
      ? {
          selectedRecords: selected,
          onSelectedRecordsChange: onSelectedChange,
          allRecordsSelectionCheckboxProps: {
            'aria-label': t('users.list.selectAll', 'Select all users on this page'),
          },
          getRecordSelectionCheckboxProps: (user: User) => ({
            'aria-label': t('users.list.selectUser', 'Select {{name}}', { name: user.fullname }),
          }),
        }
      : {};

  return (
    <DataTable<User>
      withTableBorder
      borderRadius="sm"
      highlightOnHover
      minHeight={160}
      records={users}
      columns={columns}
      idAccessor="id"
      fetching={isFetching}
      loadingText={t('users.list.loading', 'Loading users…')}
      noRecordsText={t('users.list.noMatch', 'No users match your search.')}
      sortStatus={sortStatus}
      onSortStatusChange={(status) => {
        const column = status.columnAccessor as UserSort;
        // The table keeps the old direction for a newly chosen column; a new column starts ascending.
        onSortChange({ sort: column, order: column === sort.sort ? status.direction : 'asc' });
      }}
      page={page}
      onPageChange={onPageChange}
      totalRecords={total}
      recordsPerPage={pageSize}
      onRecordsPerPageChange={onPageSizeChange}
      recordsPerPageLabel={t('users.list.pageSize', 'Users per page')}
      {...pagination}
      onRowClick={({ record, event }) => {
        if (!isInteractiveTarget(event)) navigate(`/users/${record.id}`);
      }}
      {...selection}
    />
  );
}
