import { Button, Group, Stack } from '@mantine/core';
import type { User, UserMatch } from '@palisade/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ColumnChooser, useColumnChoice } from '../../../components/list/column-choice';
import { ListSearch } from '../../../components/list/list-search';
import {
  ListToolbar,
  listTotalText,
  ServerList,
  useListSelection,
} from '../../../components/list/server-list';
import { useListAddress } from '../../../components/list/use-list-address';
import { PageHeader } from '../../../components/ui/page-header';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { serverFieldErrors } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { notify } from '../../../lib/notify';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { useBulkUsers } from '../api/bulk-users';
import { useDeleteUsers } from '../api/delete-users';
import { useExportUsers } from '../api/export-users';
import { useGroupOptions } from '../api/get-group-options';
import { useUsers } from '../api/get-users';
import { useUndoBulk } from '../api/undo-bulk';
import { BulkActions, type FlagBulkAction, type GroupBulkAction } from '../components/bulk-actions';
import { BulkConfirmModal } from '../components/bulk-confirm-modal';
import { BulkProgress } from '../components/bulk-progress';
import { DeleteUsersModal } from '../components/delete-users-modal';
import { GroupBulkModal } from '../components/group-bulk-modal';
import { ImportUsersModal } from '../components/import-users-modal';
import { SelectAllBanner } from '../components/select-all-banner';
import { type UserSort, useUserColumns } from '../components/users-table';
import { usersListCodec } from '../utils/list-params';

/**
 * `/users/list`: the tenant's end users, server-paged, sortable and searchable; bulk changes and delete of the
 * selected users — or, once the whole page is selected, of every user matching the search (sent as `match`,
 * with a progress bar while the job runs); every bulk change is confirmed with its count and can be undone from
 * its result toast. CSV export of the whole search and CSV import. Columns are the administrator's choice (kept per tenant and administrator); the name stays in view.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('users:create');
  const copyAllowed = useConfigFlag('copyAllowed');
  const canUpdate = useCan('users:update');
  const canDelete = useCan('users:delete');
  const canSelect = canUpdate || canDelete;

  const navigate = useNavigate();
  const { state, setState, search: applySearch } = useListAddress(usersListCodec);
  const query = usersListCodec.toQuery(state);
  const queryId = JSON.stringify([tenant, query]);

  const usersQuery = useUsers(tenant, query);
  const groupsQuery = useGroupOptions(tenant);
  const groupNames = useMemo(
    () => new Map((groupsQuery.data ?? []).map((group) => [group.id, group.name])),
    [groupsQuery.data],
  );

  const columnChoice = useColumnChoice(
    'users',
    useUserColumns({ groupNames, canCopy: canCreate && copyAllowed }),
  );

  // The selection belongs to one page of one tenant's query; it is dropped when any of them changes.
  const selection = useListSelection<User>(queryId);
  const selected = selection.selected;
  // "Select all N matching users": meant for the query it was chosen on, and only while the page stays selected.
  const [allMatchingFor, setAllMatchingFor] = useState<string | null>(null);
  const pageItems = usersQuery.data?.items ?? [];
  const isPageSelected = selected.length > 0 && selected.length === pageItems.length;
  const isAllMatching = isPageSelected && allMatchingFor === queryId;
  const search = state.q.trim();
  const total = usersQuery.data?.total;
  const selectionCount = isAllMatching ? (total ?? selected.length) : selected.length;
  // Every matching user of an estimated total is itself an estimate.
  const isCountEstimate = isAllMatching && usersQuery.data?.totalIsEstimate === true;
  const match: UserMatch = search ? { q: search } : {};
  const selectionBody = () => (isAllMatching ? { match } : { ids: selected.map((user) => user.id) });
  const setSelected = (users: User[]) => {
    selection.setSelected(users);
    setAllMatchingFor(null);
  };
  const clearSelection = () => setSelected([]);
  // What the open confirmation is about: fixed when it opens, so it does not change while it fades out.
  const [toDelete, setToDelete] = useState<User[]>([]);
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  // Set when the open delete confirmation is about every matching user rather than `toDelete`.
  const [deleteMatch, setDeleteMatch] = useState<{ count: number; search: string } | null>(null);
  // The bulk change waiting for its confirmation (of the selection, or of every matching user).
  const [confirmFlag, setConfirmFlag] = useState<FlagBulkAction | null>(null);

  // The group action whose modal is open, and the server's word on the chosen group.
  const [groupAction, setGroupAction] = useState<GroupBulkAction | null>(null);
  const [groupError, setGroupError] = useState<string | null>(null);
  const [isImportOpen, setImportOpen] = useState(false);

  const bulk = useBulkUsers(tenant, {
    onStarted: () => {
      // The job runs on under the progress bar; the dialogs that asked for it are done.
      setGroupAction(null);
      setConfirmFlag(null);
      if (deleteMatch) setConfirmOpen(false);
    },
    onFinished: (job, request) => {
      if (job.status === 'failed') {
        // Refused by the policy-test guard: running it again would stop at the same place, so say why.
        const text =
          job.brokenTests.length > 0
            ? t('users.bulkJob.policyTestsText', {
                processed: job.processed,
                matched: job.matched,
                tests: job.brokenTests.join(', '),
                defaultValue:
                  'It stopped after {{processed, number}} of {{matched, number}} users: the rest would break the policy tests {{tests}}, so it was not saved.',
              })
            : t('users.bulkJob.failedText', {
                processed: job.processed,
                matched: job.matched,
                defaultValue:
                  'It stopped after {{processed, number}} of {{matched, number}} users. Run it again to finish.',
              });
        notify(text, { color: 'red', title: t('users.bulkJob.failed', 'The bulk change failed') });
        return;
      }
      if (request.kind === 'delete') {
        clearSelection();
        setDeleteMatch(null);
        showSuccess(
          t('users.delete.done', {
            count: job.changed,
            defaultValue_one: 'User deleted.',
            defaultValue_other: '{{count, number}} users deleted.',
          }),
        );
        if (state.page > 1) setState({ page: 1 });
        return;
      }
      const undo = job.undoable
        ? { label: t('users.bulk.undo', 'Undo'), onUndo: () => undoBulk.mutate(job.id) }
        : undefined;
      showSuccess(
        job.changed === job.matched
          ? t('users.bulk.done', {
              count: job.changed,
              defaultValue_one: '1 user updated.',
              defaultValue_other: '{{count, number}} users updated.',
            })
          : t('users.bulk.doneSome', {
              count: job.changed,
              matched: job.matched,
              defaultValue:
                '{{count, number}} of {{matched, number}} users updated; the others needed no change.',
            }),
        undo,
      );
    },
    onError: (error) => {
      const groupProblem = serverFieldErrors(error, t).groupId;
      if (groupAction && groupProblem) setGroupError(groupProblem);
      else showMutationError(t, error);
    },
  });
  const undoBulk = useUndoBulk(tenant);
  const exportMutation = useExportUsers(tenant);

  const deleteMutation = useDeleteUsers(tenant, {
    onSuccess: (result, ids) => {
      setConfirmOpen(false);
      clearSelection();
      showSuccess(
        t('users.delete.done', {
          count: result.deleted,
          defaultValue_one: 'User deleted.',
          defaultValue_other: '{{count, number}} users deleted.',
        }),
      );
      // A page emptied by the delete is no page at all: step back to the previous one.
      if (ids.length >= (usersQuery.data?.items.length ?? 0) && state.page > 1)
        setState({ page: state.page - 1 });
    },
  });

  const isSearching = search !== '';
  const addButton = canCreate ? (
    <Button component={Link} to="/users/add">
      {t('users.list.add', 'Add user')}
    </Button>
  ) : null;
  const headerActions = (
    <Group gap="sm">
      <Button
        variant="default"
        loading={exportMutation.isPending}
        onClick={() =>
          exportMutation.mutate({ q: state.q.trim() || undefined, sort: state.sort, order: state.order })
        }
      >
        {t('users.list.export', 'Export CSV')}
      </Button>
      {canCreate ? (
        <Button variant="default" onClick={() => setImportOpen(true)}>
          {t('users.list.import', 'Import CSV')}
        </Button>
      ) : null}
      {addButton}
    </Group>
  );

  return (
    <>
      <PageHeader
        title={t('users.list.title', 'Users')}
        description={listTotalText(t, usersQuery.data, (count) =>
          t('users.list.total', {
            count,
            defaultValue_one: '{{count}} user',
            defaultValue_other: '{{count, number}} users',
          }),
        )}
        actions={headerActions}
      />
      <Stack gap="md">
        <ListToolbar
          search={
            <ListSearch
              value={state.q}
              onSearch={applySearch}
              label={t('users.list.search', 'Search')}
              placeholder={t('users.list.searchPlaceholder', 'Name, username or e-mail')}
            />
          }
          actions={<ColumnChooser choice={columnChoice} />}
          // The bulk bar: the selection's actions, or the progress of the bulk change they started.
          bulkBar={
            bulk.job ? (
              <BulkProgress job={bulk.job} isPollFailing={bulk.isPollFailing} />
            ) : canSelect && selected.length > 0 ? (
              <BulkActions
                count={selectionCount}
                isCountEstimate={isCountEstimate}
                canDelete={canDelete}
                canUpdate={canUpdate}
                isRunning={bulk.isBusy}
                onDelete={() => {
                  if (isAllMatching) {
                    setToDelete([]);
                    setDeleteMatch({ count: selectionCount, search });
                  } else {
                    setToDelete(selected);
                    setDeleteMatch(null);
                  }
                  setConfirmOpen(true);
                }}
                onFlagAction={setConfirmFlag}
                onGroupAction={(action) => {
                  setGroupError(null);
                  setGroupAction(action);
                }}
              />
            ) : null
          }
        />
        <ServerList<User>
          query={usersQuery}
          columns={columnChoice.columns}
          texts={{
            loading: t('users.list.loading', 'Loading users…'),
            empty: t('users.list.empty', 'No users yet.'),
            noMatch: t('users.list.noMatch', 'No users match your search.'),
            perPage: t('users.list.pageSize', 'Users per page'),
          }}
          page={state.page}
          pageSize={state.pageSize}
          onPageChange={(page) => setState({ page })}
          onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
          sort={{ column: state.sort, order: state.order }}
          onSortChange={({ column, order }) => setState({ sort: column as UserSort, order, page: 1 })}
          isFiltered={isSearching}
          emptyAction={addButton}
          pinFirstColumn
          selection={
            canSelect
              ? {
                  selected,
                  onChange: setSelected,
                  allLabel: t('users.list.selectAll', 'Select all users on this page'),
                  rowLabel: (user) => t('users.list.selectUser', 'Select {{name}}', { name: user.fullname }),
                }
              : undefined
          }
          onRowClick={(user) => navigate(`/users/${user.id}`)}
          aboveRows={
            canSelect && isPageSelected && usersQuery.data && usersQuery.data.total > pageItems.length ? (
              <SelectAllBanner
                pageCount={pageItems.length}
                total={usersQuery.data.total}
                isTotalEstimate={usersQuery.data.totalIsEstimate}
                isSearching={isSearching}
                isAllMatching={isAllMatching}
                onSelectAll={() => setAllMatchingFor(queryId)}
                onClear={clearSelection}
              />
            ) : null
          }
        />
      </Stack>
      <DeleteUsersModal
        opened={isConfirmOpen}
        users={toDelete}
        match={deleteMatch}
        isDeleting={deleteMutation.isPending || bulk.isStarting}
        onClose={() => setConfirmOpen(false)}
        onConfirm={() =>
          deleteMatch
            ? bulk.start({ kind: 'delete', body: { match } })
            : deleteMutation.mutate(toDelete.map((user) => user.id))
        }
      />
      <BulkConfirmModal
        action={confirmFlag}
        count={selectionCount}
        isAllMatching={isAllMatching}
        search={search}
        isRunning={bulk.isStarting}
        onClose={() => setConfirmFlag(null)}
        onConfirm={(action, reason) =>
          bulk.start({ kind: 'change', body: { ...selectionBody(), action, ...(reason ? { reason } : {}) } })
        }
      />
      <GroupBulkModal
        action={groupAction}
        count={selectionCount}
        groups={groupsQuery.data ?? []}
        isLoadingGroups={groupsQuery.isPending}
        isRunning={bulk.isStarting}
        groupError={groupError}
        onClose={() => setGroupAction(null)}
        onConfirm={(groupId) => {
          setGroupError(null);
          if (groupAction)
            bulk.start({ kind: 'change', body: { ...selectionBody(), action: groupAction, groupId } });
        }}
      />
      {canCreate ? (
        <ImportUsersModal
          opened={isImportOpen}
          tenant={tenant}
          groups={groupsQuery.data ?? []}
          onClose={() => setImportOpen(false)}
        />
      ) : null}
    </>
  );
}
