import { useDataTablePagination } from '../../../components/ui/data-table-pagination';
import 'mantine-datatable/styles.css';
import { Anchor, Badge, Button, Group as Row, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { CONN_STATUSES, GroupMember } from '@palisade/contracts';
import { DataTable } from 'mantine-datatable';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useWorkingTenant } from '../../../lib/auth';
import { useRemoveGroupMembers } from '../api/change-group-members';
import { useExportGroupMembers } from '../api/export-group-members';
import { useGroupMembers } from '../api/get-group-members';
import { showSuccess } from '../api/mutation-toast';
import { PAGE_SIZES } from '../utils/list-params';
import { AddMembers } from './add-members';

type ConnStatus = (typeof CONN_STATUSES)[number];
const CONN_COLORS: Record<ConnStatus, string> = { connected: 'green', disconnected: 'orange', never: 'gray' };

/** Connection status as translated text (spec §4) on a colour badge. */
function ConnStatusText({ status }: { status: ConnStatus }) {
  const { t } = useTranslation();
  const labels: Record<ConnStatus, string> = {
    connected: t('groups.connstatus.connected', 'Connected'),
    disconnected: t('groups.connstatus.disconnected', 'Disconnected'),
    never: t('groups.connstatus.never', 'Never connected'),
  };
  return (
    <Badge color={CONN_COLORS[status]} variant="light" radius="sm">
      {labels[status]}
    </Badge>
  );
}

/** Props of {@link GroupMembers}. */
export interface GroupMembersProps {
  groupId: string;
  /** May add and remove members (groups:update). */
  canEdit: boolean;
}

/** The members of a group: server-paged and searchable, with add (picker) and remove (selection). */
export function GroupMembers({ groupId, canEdit }: GroupMembersProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const headingId = useId();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const [searchText, setSearchText] = useState('');
  const [q, setQ] = useState('');
  const applySearch = useDebouncedCallback((value: string) => {
    setQ(value.trim());
    setPage(1);
  }, 300);

  const query = { limit: pageSize, offset: (page - 1) * pageSize, ...(q ? { q } : {}) };
  const queryId = JSON.stringify([tenant, groupId, query]);
  const membersQuery = useGroupMembers(tenant, groupId, query);
  const pagination = useDataTablePagination({ isTotalEstimate: membersQuery.data?.totalIsEstimate });
  const [selection, setSelection] = useState<{ queryId: string; members: GroupMember[] }>({
    queryId,
    members: [],
  });
  const selected = selection.queryId === queryId ? selection.members : [];

  const exportMutation = useExportGroupMembers(tenant, groupId);
  const removeMutation = useRemoveGroupMembers(tenant, groupId, {
    onSuccess: ({ removed }) => {
      setSelection({ queryId, members: [] });
      showSuccess(
        t('groups.members.removed', {
          count: removed,
          defaultValue_one: '{{count}} member removed.',
          defaultValue_other: '{{count}} members removed.',
        }),
      );
      if (selected.length >= (membersQuery.data?.items.length ?? 0) && page > 1) setPage(page - 1);
    },
  });

  const renderTable = () => {
    if (membersQuery.isPending) {
      return <LoadingState label={t('groups.members.loading', 'Loading members…')} />;
    }
    if (membersQuery.isError && !membersQuery.data) {
      return <ErrorState error={membersQuery.error} onRetry={() => void membersQuery.refetch()} />;
    }
    const data = membersQuery.data;
    if (data.total === 0) {
      return (
        <EmptyState
          message={
            q
              ? t('groups.members.noMatch', 'No members match your search.')
              : t('groups.members.empty', 'This group has no members yet.')
          }
        />
      );
    }
    return (
      <DataTable<GroupMember>
        withTableBorder
        borderRadius="sm"
        minHeight={120}
        records={data.items}
        idAccessor="id"
        fetching={membersQuery.isFetching}
        loadingText={t('groups.members.loading', 'Loading members…')}
        columns={[
          {
            accessor: 'fullname',
            title: t('groups.members.fullname', 'Full name'),
            noWrap: true,
            render: (member) => (
              <Anchor component={Link} to={`/users/${member.id}`} fw={500}>
                {member.fullname}
              </Anchor>
            ),
          },
          { accessor: 'username', title: t('groups.members.username', 'Username'), noWrap: true },
          {
            accessor: 'connstatus',
            title: t('groups.members.connstatus', 'Connection status'),
            render: (member) => <ConnStatusText status={member.connstatus} />,
          },
        ]}
        page={page}
        onPageChange={setPage}
        totalRecords={data.total}
        recordsPerPage={pageSize}
        onRecordsPerPageChange={(size: number) => {
          setPageSize(size);
          setPage(1);
        }}
        recordsPerPageLabel={t('groups.members.pageSize', 'Members per page')}
        {...pagination}
        {...(canEdit
          ? {
              selectedRecords: selected,
              onSelectedRecordsChange: (members: GroupMember[]) => setSelection({ queryId, members }),
              allRecordsSelectionCheckboxProps: {
                'aria-label': t('groups.members.selectAll', 'Select all members on this page'),
              },
              getRecordSelectionCheckboxProps: (member: GroupMember) => ({
                'aria-label': t('groups.members.select', 'Select {{name}}', { name: member.fullname }),
              }),
            }
          : {})}
      />
    );
  };

  return (
    <Stack component="section" aria-labelledby={headingId} gap="md" mt="xl">
      <Title order={2} size="h4" id={headingId}>
        {t('groups.members.title', 'Members')}
      </Title>
      {canEdit ? <AddMembers groupId={groupId} /> : null}
      <Row justify="space-between" align="flex-end" gap="md">
        <TextInput
          type="search"
          label={t('groups.members.search', 'Search members')}
          placeholder={t('groups.members.searchPlaceholder', 'Name, username or e-mail')}
          value={searchText}
          onChange={(event) => {
            setSearchText(event.currentTarget.value);
            applySearch(event.currentTarget.value);
          }}
          w={{ base: '100%', sm: 320 }}
        />
        <Row gap="sm">
          {canEdit && selected.length > 0 ? (
            <>
              <Text size="sm" c="dimmed">
                {t('groups.list.selected', { count: selected.length, defaultValue: '{{count}} selected' })}
              </Text>
              <Button
                color="red"
                variant="light"
                loading={removeMutation.isPending}
                onClick={() => removeMutation.mutate(selected.map((member) => member.id))}
              >
                {t('groups.members.remove', 'Remove from group')}
              </Button>
            </>
          ) : null}
          <Button
            variant="default"
            loading={exportMutation.isPending}
            onClick={() => exportMutation.mutate({ q: q || undefined })}
          >
            {t('groups.members.export', 'Export CSV')}
          </Button>
        </Row>
      </Row>
      {membersQuery.isError && membersQuery.data ? (
        <ErrorState error={membersQuery.error} onRetry={() => void membersQuery.refetch()} />
      ) : null}
      {renderTable()}
    </Stack>
  );
}
