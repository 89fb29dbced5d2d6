import { Button, Group as Row, Stack } from '@mantine/core';
import type { Group } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toTableColumns } from '../../../components/list/column-choice';
import { ListSearch } from '../../../components/list/list-search';
import {
  ListToolbar,
  listTotalText,
  SelectedCount,
  ServerList,
  useListSelection,
} from '../../../components/list/server-list';
import { useListAddress } from '../../../components/list/use-list-address';
import { PageHeader } from '../../../components/ui/page-header';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { useDeleteGroups } from '../api/delete-groups';
import { useExportGroups } from '../api/export-groups';
import { useGroups } from '../api/get-groups';
import { DeleteGroupsModal } from '../components/delete-groups-modal';
import { type GroupSort, useGroupColumns } from '../components/groups-table';
import { ImportGroupsModal } from '../components/import-groups-modal';
import { groupsListCodec } from '../utils/list-params';

/**
 * `/users/groups`: the tenant's groups, server-paged, sortable and searchable, with bulk delete, CSV export of
 * the whole search and CSV import.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const navigate = useNavigate();
  const canCreate = useCan('groups:create');
  const copyAllowed = useConfigFlag('copyAllowed');
  const canDelete = useCan('groups:delete');

  const { state, setState, search } = useListAddress(groupsListCodec);
  const query = groupsListCodec.toQuery(state);
  const groupsQuery = useGroups(tenant, query);
  const { selected, setSelected, clear } = useListSelection<Group>(JSON.stringify([tenant, query]));
  const columns = toTableColumns(useGroupColumns({ canCopy: canCreate && copyAllowed }));

  // What the open confirmation is about: fixed when it opens, so it does not change while it fades out.
  const [toDelete, setToDelete] = useState<Group[]>([]);
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const [isImportOpen, setImportOpen] = useState(false);
  const exportMutation = useExportGroups(tenant);

  const deleteMutation = useDeleteGroups(tenant, {
    onSuccess: (result, ids) => {
      setConfirmOpen(false);
      clear();
      showSuccess(
        t('groups.delete.done', {
          count: result.deleted,
          defaultValue_one: 'Group deleted.',
          defaultValue_other: '{{count}} groups deleted.',
        }),
      );
      // A page emptied by the delete is no page at all: step back to the previous one.
      if (ids.length >= (groupsQuery.data?.items.length ?? 0) && state.page > 1)
        setState({ page: state.page - 1 });
    },
  });

  const addButton = canCreate ? (
    <Button component={Link} to="/users/groups/add">
      {t('groups.list.add', 'Add group')}
    </Button>
  ) : null;
  const headerActions = (
    <Row gap="sm">
      <Button
        variant="default"
        loading={exportMutation.isPending}
        onClick={() =>
          exportMutation.mutate({ q: state.q.trim() || undefined, sort: state.sort, order: state.order })
        }
      >
        {t('groups.list.export', 'Export CSV')}
      </Button>
      {canCreate ? (
        <Button variant="default" onClick={() => setImportOpen(true)}>
          {t('groups.list.import', 'Import CSV')}
        </Button>
      ) : null}
      {addButton}
    </Row>
  );

  return (
    <>
      <PageHeader
        title={t('groups.list.title', 'Groups')}
        description={listTotalText(t, groupsQuery.data, (count) =>
          t('groups.list.total', {
            count,
            defaultValue_one: '{{count}} group',
            defaultValue_other: '{{count}} groups',
          }),
        )}
        actions={headerActions}
      />
      <Stack gap="md">
        <ListToolbar
          search={
            <ListSearch
              value={state.q}
              onSearch={search}
              label={t('groups.list.search', 'Search')}
              placeholder={t('groups.list.searchPlaceholder', 'Name or description')}
            />
          }
          bulkBar={
            canDelete && selected.length > 0 ? (
              <>
                <SelectedCount count={selected.length} />
                <Button
                  color="red"
                  variant="light"
                  onClick={() => {
                    setToDelete(selected);
                    setConfirmOpen(true);
                  }}
                >
                  {t('groups.list.delete', 'Delete')}
                </Button>
              </>
            ) : null
          }
        />
        <ServerList<Group>
          query={groupsQuery}
          columns={columns}
          texts={{
            loading: t('groups.list.loading', 'Loading groups…'),
            empty: t('groups.list.empty', 'No groups yet.'),
            noMatch: t('groups.list.noMatch', 'No groups match your search.'),
            perPage: t('groups.list.pageSize', 'Groups per page'),
          }}
          page={state.page}
          pageSize={state.pageSize}
          onPageChange={(page) => setState({ page })}
          onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
          sort={{ column: state.sort, order: state.order }}
          onSortChange={({ column, order }) => setState({ sort: column as GroupSort, order, page: 1 })}
          isFiltered={state.q.trim() !== ''}
          emptyAction={addButton}
          selection={
            canDelete
              ? {
                  selected,
                  onChange: setSelected,
                  allLabel: t('groups.list.selectAll', 'Select all groups on this page'),
                  rowLabel: (group) => t('groups.list.selectGroup', 'Select {{name}}', { name: group.name }),
                }
              : undefined
          }
          onRowClick={(group) => navigate(`/groups/${group.id}`)}
        />
      </Stack>
      <DeleteGroupsModal
        opened={isConfirmOpen}
        groups={toDelete}
        isDeleting={deleteMutation.isPending}
        onClose={() => setConfirmOpen(false)}
        onConfirm={() => deleteMutation.mutate(toDelete.map((group) => group.id))}
      />
      {canCreate ? (
        <ImportGroupsModal opened={isImportOpen} tenant={tenant} onClose={() => setImportOpen(false)} />
      ) : null}
    </>
  );
}
