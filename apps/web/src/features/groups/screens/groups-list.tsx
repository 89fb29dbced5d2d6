import { Button, Group as Row, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { Group } from '@palisade/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { useDeleteGroups } from '../api/delete-groups';
import { useExportGroups } from '../api/export-groups';
import { useGroups } from '../api/get-groups';
import { showSuccess } from '../api/mutation-toast';
import { DeleteGroupsModal } from '../components/delete-groups-modal';
import { GroupsTable } from '../components/groups-table';
import { ImportGroupsModal } from '../components/import-groups-modal';
import { type GroupsListState, parseListState, toListQuery, toSearchParams } from '../utils/list-params';

/** How long the search waits after the last keystroke before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * `/users/groups`: the tenant's groups, server-paged, sortable and searchable, with bulk delete, CSV export of
 * the whole search and CSV import.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('groups:create');
  const canDelete = useCan('groups:delete');

  const [searchParams, setSearchParams] = useSearchParams();
  const state = parseListState(searchParams);
  const query = toListQuery(state);
  const queryId = JSON.stringify([tenant, query]);

  const setState = (patch: Partial<GroupsListState>, options?: { replace?: boolean }) =>
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

  const groupsQuery = useGroups(tenant, query);

  // The selection belongs to one page of one tenant's query; it is dropped when any of them changes.
  const [selection, setSelection] = useState<{ queryId: string; groups: Group[] }>({ queryId, groups: [] });
  const selected = selection.queryId === queryId ? selection.groups : [];
  // What the open confirmation is about: fixed when it opens, so it does not change while it fades out.
  const [toDelete, setToDelete] = useState<Group[]>([]);
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const [isImportOpen, setImportOpen] = useState(false);
  const exportMutation = useExportGroups(tenant);

  const deleteMutation = useDeleteGroups(tenant, {
    onSuccess: (result, ids) => {
      setConfirmOpen(false);
      setSelection({ queryId, groups: [] });
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

  const total = groupsQuery.data?.total;
  const isSearching = state.q.trim() !== '';
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

  const renderBody = () => {
    if (groupsQuery.isPending) return <LoadingState label={t('groups.list.loading', 'Loading groups…')} />;
    if (groupsQuery.isError && !groupsQuery.data) {
      return <ErrorState error={groupsQuery.error} onRetry={() => void groupsQuery.refetch()} />;
    }
    const page = groupsQuery.data;
    if (page.total === 0 && !isSearching) {
      return <EmptyState message={t('groups.list.empty', 'No groups yet.')} action={addButton} />;
    }
    if (page.total === 0) {
      return <EmptyState message={t('groups.list.noMatch', 'No groups match your search.')} />;
    }
    return (
      <>
        {groupsQuery.isError ? (
          <ErrorState error={groupsQuery.error} onRetry={() => void groupsQuery.refetch()} />
        ) : null}
        <GroupsTable
          groups={page.items}
          total={page.total}
          isTotalEstimate={page.totalIsEstimate}
          page={state.page}
          pageSize={state.pageSize}
          sort={{ sort: state.sort, order: state.order }}
          isFetching={groupsQuery.isFetching}
          canCopy={canCreate}
          {...(canDelete
            ? { selected, onSelectedChange: (groups: Group[]) => setSelection({ queryId, groups }) }
            : {})}
          onPageChange={(next) => setState({ page: next })}
          onPageSizeChange={(size) => setState({ pageSize: size as GroupsListState['pageSize'], page: 1 })}
          onSortChange={({ sort, order }) => setState({ sort, order, page: 1 })}
        />
      </>
    );
  };

  return (
    <>
      <PageHeader
        title={t('groups.list.title', 'Groups')}
        description={
          total === undefined
            ? undefined
            : t('groups.list.total', {
                count: total,
                defaultValue_one: '{{count}} group',
                defaultValue_other: '{{count}} groups',
              })
        }
        actions={headerActions}
      />
      <Stack gap="md">
        <Row justify="space-between" align="flex-end" gap="md">
          <TextInput
            type="search"
            label={t('groups.list.search', 'Search')}
            placeholder={t('groups.list.searchPlaceholder', 'Name or description')}
            value={searchText}
            onChange={(event) => {
              setSearchText(event.currentTarget.value);
              applySearch(event.currentTarget.value);
            }}
            w={{ base: '100%', sm: 320 }}
          />
          {canDelete && selected.length > 0 ? (
            <Row gap="sm">
              <Text size="sm" c="dimmed">
                {t('groups.list.selected', { count: selected.length, defaultValue: '{{count}} selected' })}
              </Text>
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
            </Row>
          ) : null}
        </Row>
        {renderBody()}
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
