import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { User } from '@palisade/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { serverFieldErrors } from '../../../lib/form-errors';
import { useBulkUsers } from '../api/bulk-users';
import { useDeleteUsers } from '../api/delete-users';
import { useExportUsers } from '../api/export-users';
import { useGroupOptions } from '../api/get-group-options';
import { useUsers } from '../api/get-users';
import { showMutationError, showSuccess } from '../api/mutation-toast';
import { BulkActions, type GroupBulkAction } from '../components/bulk-actions';
import { DeleteUsersModal } from '../components/delete-users-modal';
import { GroupBulkModal } from '../components/group-bulk-modal';
import { ImportUsersModal } from '../components/import-users-modal';
import { UsersTable } from '../components/users-table';
import { parseListState, toListQuery, toSearchParams, type UsersListState } from '../utils/list-params';

/** How long the search waits after the last keystroke before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * `/users/list`: the tenant's end users, server-paged, sortable and searchable; bulk changes and delete of the
 * selected users, CSV export of the whole search and CSV import.
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
  // What the open confirmation is about: fixed when it opens, so it does not change while it fades out.
  const [toDelete, setToDelete] = useState<User[]>([]);
  const [isConfirmOpen, setConfirmOpen] = useState(false);

  // The group action whose modal is open, and the server's word on the chosen group.
  const [groupAction, setGroupAction] = useState<GroupBulkAction | null>(null);
  const [groupError, setGroupError] = useState<string | null>(null);
  const [isImportOpen, setImportOpen] = useState(false);

  const bulkMutation = useBulkUsers(tenant, {
    onSuccess: (result) => {
      setGroupAction(null);
      showSuccess(
        t('users.bulk.done', {
          count: result.updated,
          defaultValue_one: '1 user updated.',
          defaultValue_other: '{{count, number}} users updated.',
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
      setSelection({ queryId, users: [] });
      showSuccess(
        t('users.delete.done', {
          count: result.deleted,
          defaultValue_one: 'User deleted.',
          defaultValue_other: '{{count}} users deleted.',
        }),
      );
      // A page emptied by the delete is no page at all: step back to the previous one.
      if (ids.length >= (usersQuery.data?.items.length ?? 0) && state.page > 1)
        setState({ page: state.page - 1 });
    },
  });

  const total = usersQuery.data?.total;
  const isSearching = state.q.trim() !== '';
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
        <UsersTable
          users={page.items}
          total={page.total}
          page={state.page}
          pageSize={state.pageSize}
          sort={{ sort: state.sort, order: state.order }}
          groupNames={groupNames}
          isFetching={usersQuery.isFetching}
          canCopy={canCreate}
          {...(canSelect
            ? { selected, onSelectedChange: (users: User[]) => setSelection({ queryId, users }) }
            : {})}
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
          {canSelect && selected.length > 0 ? (
            <BulkActions
              count={selected.length}
              canDelete={canDelete}
              canUpdate={canUpdate}
              isRunning={bulkMutation.isPending}
              onDelete={() => {
                setToDelete(selected);
                setConfirmOpen(true);
              }}
              onFlagAction={(action) => bulkMutation.mutate({ ids: selected.map((user) => user.id), action })}
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
        isDeleting={deleteMutation.isPending}
        onClose={() => setConfirmOpen(false)}
        onConfirm={() => deleteMutation.mutate(toDelete.map((user) => user.id))}
      />
      <GroupBulkModal
        action={groupAction}
        count={selected.length}
        groups={groupsQuery.data ?? []}
        isLoadingGroups={groupsQuery.isPending}
        isRunning={bulkMutation.isPending}
        groupError={groupError}
        onClose={() => setGroupAction(null)}
        onConfirm={(groupId) => {
          setGroupError(null);
          if (groupAction)
            bulkMutation.mutate({ ids: selected.map((user) => user.id), action: groupAction, groupId });
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
