import { Anchor, Badge, Button, Stack, Title } from '@mantine/core';
import type { CONN_STATUSES, GroupMember } from '@palisade/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ListColumn, toTableColumns } from '../../../components/list/column-choice';
import { ListSearch } from '../../../components/list/list-search';
import {
  ListToolbar,
  SelectedCount,
  ServerList,
  useListSelection,
} from '../../../components/list/server-list';
import { useWorkingTenant } from '../../../lib/auth';
import { PAGE_SIZES, type PageSize } from '../../../lib/list-state';
import { showSuccess } from '../../../lib/mutation-toast';
import { useRemoveGroupMembers } from '../api/change-group-members';
import { useExportGroupMembers } from '../api/export-group-members';
import { useGroupMembers } from '../api/get-group-members';
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

/**
 * The members of a group: server-paged and searchable, with add (picker) and remove (selection). Its paging
 * and search live in the component, not the address: the address belongs to the group page around it.
 */
export function GroupMembers({ groupId, canEdit }: GroupMembersProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const headingId = useId();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<PageSize>(PAGE_SIZES[0]);
  const [q, setQ] = useState('');

  const query = { limit: pageSize, offset: (page - 1) * pageSize, ...(q ? { q } : {}) };
  const membersQuery = useGroupMembers(tenant, groupId, query);
  const { selected, setSelected, clear } = useListSelection<GroupMember>(
    JSON.stringify([tenant, groupId, query]),
  );

  const exportMutation = useExportGroupMembers(tenant, groupId);
  const removeMutation = useRemoveGroupMembers(tenant, groupId, {
    onSuccess: ({ removed }) => {
      clear();
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

  const columns: ListColumn<GroupMember>[] = [
    {
      accessor: 'fullname',
      title: t('groups.members.fullname', 'Full name'),
      noWrap: true,
      isEssential: true,
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
      isEssential: true,
      render: (member) => <ConnStatusText status={member.connstatus} />,
    },
  ];

  return (
    <Stack component="section" aria-labelledby={headingId} gap="md" mt="xl">
      <Title order={2} size="h4" id={headingId}>
        {t('groups.members.title', 'Members')}
      </Title>
      {canEdit ? <AddMembers groupId={groupId} /> : null}
      <ListToolbar
        search={
          <ListSearch
            value={q}
            onSearch={(text) => {
              setQ(text.trim());
              setPage(1);
            }}
            label={t('groups.members.search', 'Search members')}
            placeholder={t('groups.members.searchPlaceholder', 'Name, username or e-mail')}
          />
        }
        bulkBar={
          canEdit && selected.length > 0 ? (
            <>
              <SelectedCount count={selected.length} />
              <Button
                color="red"
                variant="light"
                loading={removeMutation.isPending}
                onClick={() => removeMutation.mutate(selected.map((member) => member.id))}
              >
                {t('groups.members.remove', 'Remove from group')}
              </Button>
            </>
          ) : null
        }
        actions={
          <Button
            variant="default"
            loading={exportMutation.isPending}
            onClick={() => exportMutation.mutate({ q: q || undefined })}
          >
            {t('groups.members.export', 'Export CSV')}
          </Button>
        }
      />
      <ServerList<GroupMember>
        query={membersQuery}
        columns={toTableColumns(columns)}
        texts={{
          loading: t('groups.members.loading', 'Loading members…'),
          empty: t('groups.members.empty', 'This group has no members yet.'),
          noMatch: t('groups.members.noMatch', 'No members match your search.'),
          perPage: t('groups.members.pageSize', 'Members per page'),
        }}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        isFiltered={q !== ''}
        minHeight={120}
        selection={
          canEdit
            ? {
                selected,
                onChange: setSelected,
                allLabel: t('groups.members.selectAll', 'Select all members on this page'),
                rowLabel: (member) =>
                  t('groups.members.select', 'Select {{name}}', { name: member.fullname }),
              }
            : undefined
        }
      />
    </Stack>
  );
}
