import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { User, UserMatch } from '@palisade/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { serverFieldErrors } from '../../../lib/form-errors';
import { notify } from '../../../lib/notify';
import { useBulkUsers } from '../api/bulk-users';
import { useDeleteUsers } from '../api/delete-users';
import { useExportUsers } from '../api/export-users';
import { useGroupOptions } from '../api/get-group-options';
import { useUsers } from '../api/get-users';
import { showMutationError, showSuccess } from '../api/mutation-toast';
import { BulkActions, type FlagBulkAction, type GroupBulkAction } from '../components/bulk-actions';
import { BulkConfirmModal } from '../components/bulk-confirm-modal';
import { BulkProgress } from '../components/bulk-progress';
import { DeleteUsersModal } from '../components/delete-users-modal';
import { GroupBulkModal } from '../components/group-bulk-modal';
import { ImportUsersModal } from '../components/import-users-modal';
import { SelectAllBanner } from '../components/select-all-banner';
import { UsersTable } from '../components/users-table';
import { parseListState, toListQuery, toSearchParams, type UsersListState } from '../utils/list-params';

/** How long the search waits after the last keystroke before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * `/users/list`: the tenant's end users, server-paged, sortable and searchable; bulk changes and delete of the
 * selected users — or, once the whole page is selected, of every user matching the search (sent as `match`,
 * confirmed with the count, with a progress bar while the job runs) — CSV export of the whole search and CSV
 * import.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('users:create');
  const canUpdate = useCan('users:update');
  const canDelete = useCan('users:delete');
  const canSelect = canUpdate || canDelete;

  const [searchParams, setSearchParams] = useSearchParams();
  const state = parseListState(searchParams);
  const query = toListQuery(state);
  const queryId = JSON.stringify([tenant, query]);

  const setState = (patch: Partial<UsersListState>, options?: { replace?: boolean }) =>
    setSearchParams(toSearchParams({ ...state, ...patch }), options);

  // The box shows what is typed at once; the address (and so the query) follows 300 ms after the last key.
  const [searchText, setSearchText] = useState(state.q);
  const applySearch = useDebouncedCallback((q: string) => {
    setSearchParams((current) => toSearchParams({ ...parseListState(current), q, page: 1 }), {
      replace: true,
    });
  }, SEARCH_DEBOUNCE_MS);
  // Back and forward change the address under the box; the box follows.
  useEffect(() => {
    setSearchText((text) => (text.trim() === state.q.trim() ? text : state.q));
  }, [state.q]);

  const usersQuery = useUsers(tenant, query);
  const groupsQuery = useGroupOptions(tenant);
  const groupNames = useMemo(
    () => new Map((groupsQuery.data ?? []).map((group) => [group.id, group.name])),
    [groupsQuery.data],
  );

  // The selection belongs to one page of one tenant's query; it is dropped when any of them changes.
  const [selection, setSelection] = useState<{ queryId: string; users: User[] }>({ queryId, users: [] });
  const selected = selection.queryId === queryId ? selection.users : [];
  // "Select all N matching users": meant for the query it was chosen on, and only while the page stays selected.
  const [allMatchingFor, setAllMatchingFor] = useState<string | null>(null);
  const pageItems = usersQuery.data?.items ?? [];
  const isPageSelected = selected.length > 0 && selected.length === pageItems.length;
  const isAllMatching = isPageSelected && allMatchingFor === queryId;
  const search = state.q.trim();
  const total = usersQuery.data?.total;
  const selectionCount = isAllMatching ? (total ?? selected.length) : selected.length;
  const match: UserMatch = search ? { q: search } : {};
  const selectionBody = () => (isAllMatching ? { match } : { ids: selected.map((user) => user.id) });
  const setSelected = (users: User[]) => {
    setSelection({ queryId, users });
    setAllMatchingFor(null);
  };
  const clearSelection = () => setSelected([]);
  // What the open confirmation is about: fixed when it opens, so it does not change while it fades out.
  const [toDelete, setToDelete] = useState<User[]>([]);
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  // Set when the open delete confirmation is about every matching user rather than `toDelete`.
  const [deleteMatch, setDeleteMatch] = useState<{ count: number; search: string } | null>(null);
  // The change over every matching user waiting for its confirmation.
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
      );
    },
    onError: (error) => {
      const groupProblem = serverFieldErrors(error, t).groupId;
      if (groupAction && groupProblem) setGroupError(groupProblem);
      else showMutationError(t, error);
    },
  });
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

  const renderBody = () => {
    if (usersQuery.isPending) return <LoadingState label={t('users.list.loading', 'Loading users…')} />;
    if (usersQuery.isError && !usersQuery.data) {
      return <ErrorState error={usersQuery.error} onRetry={() => void usersQuery.refetch()} />;
    }
    const page = usersQuery.data;
    if (page.total === 0 && !isSearching) {
      return <EmptyState message={t('users.list.empty', 'No users yet.')} action={addButton} />;
    }
    if (page.total === 0) {
      return <EmptyState message={t('users.list.noMatch', 'No users match your search.')} />;
    }
    return (
      <>
        {usersQuery.isError ? (
          <ErrorState error={usersQuery.error} onRetry={() => void usersQuery.refetch()} />
        ) : null}
        {canSelect && isPageSelected && page.total > page.items.length ? (
          <SelectAllBanner
            pageCount={page.items.length}
            total={page.total}
            isSearching={isSearching}
            isAllMatching={isAllMatching}
            onSelectAll={() => setAllMatchingFor(queryId)}
            onClear={clearSelection}
          />
        ) : null}
        <UsersTable
          users={page.items}
          total={page.total}
          isTotalEstimate={page.totalIsEstimate}
          page={state.page}
          pageSize={state.pageSize}
          sort={{ sort: state.sort, order: state.order }}
          groupNames={groupNames}
          isFetching={usersQuery.isFetching}
          canCopy={canCreate}
          {...(canSelect ? { selected, onSelectedChange: setSelected } : {})}
          onPageChange={(next) => setState({ page: next })}
          onPageSizeChange={(size) => setState({ pageSize: size as UsersListState['pageSize'], page: 1 })}
          onSortChange={({ sort, order }) => setState({ sort, order, page: 1 })}
        />
      </>
    );
  };

  return (
    <>
      <PageHeader
        title={t('users.list.title', 'Users')}
        description={
          total === undefined
            ? undefined
            : t('users.list.total', {
                count: total,
                defaultValue_one: '{{count}} user',
                defaultValue_other: '{{count, number}} users',
              })
        }
        actions={headerActions}
      />
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" gap="md">
          <TextInput
            type="search"
            label={t('users.list.search', 'Search')}
            placeholder={t('users.list.searchPlaceholder', 'Name, username or e-mail')}
            value={searchText}
            onChange={(event) => {
              setSearchText(event.currentTarget.value);
              applySearch(event.currentTarget.value);
            }}
            w={{ base: '100%', sm: 320 }}
          />
          {bulk.job ? (
            <BulkProgress job={bulk.job} isPollFailing={bulk.isPollFailing} />
          ) : canSelect && selected.length > 0 ? (
            <BulkActions
              count={selectionCount}
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
              onFlagAction={(action) =>
                isAllMatching
                  ? setConfirmFlag(action)
                  : bulk.start({ kind: 'change', body: { ...selectionBody(), action } })
              }
              onGroupAction={(action) => {
                setGroupError(null);
                setGroupAction(action);
              }}
            />
          ) : null}
        </Group>
        {renderBody()}
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
        search={search}
        isRunning={bulk.isStarting}
        onClose={() => setConfirmFlag(null)}
        onConfirm={(action) => bulk.start({ kind: 'change', body: { match, action } })}
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
