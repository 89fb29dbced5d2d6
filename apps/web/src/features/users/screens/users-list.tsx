import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { User } from '@palisade/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { useDeleteUsers } from '../api/delete-users';
import { useGroupOptions } from '../api/get-group-options';
import { useUsers } from '../api/get-users';
import { showSuccess } from '../api/mutation-toast';
import { DeleteUsersModal } from '../components/delete-users-modal';
import { UsersTable } from '../components/users-table';
import { parseListState, toListQuery, toSearchParams, type UsersListState } from '../utils/list-params';

/** How long the search waits after the last keystroke before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/** `/users/list`: the tenant's end users, server-paged, sortable and searchable, with bulk delete. */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('users:create');
  const canDelete = useCan('users:delete');

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
          {...(canDelete
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
                defaultValue_other: '{{count}} users',
              })
        }
        actions={addButton}
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
          {canDelete && selected.length > 0 ? (
            <Group gap="sm">
              <Text size="sm" c="dimmed">
                {t('users.list.selected', { count: selected.length, defaultValue: '{{count}} selected' })}
              </Text>
              <Button
                color="red"
                variant="light"
                onClick={() => {
                  setToDelete(selected);
                  setConfirmOpen(true);
                }}
              >
                {t('users.list.delete', 'Delete')}
              </Button>
            </Group>
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
    </>
  );
}
