import { Badge, Group as Row, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { policyEndpoints, type UserPolicyVia, type UserPolicyView } from '@palisade/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useDataTablePagination } from '../../../components/ui/data-table-pagination';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { request } from '../../../lib/api-client';
import { useWorkingTenant } from '../../../lib/auth';
import { listStateCodec } from '../../../lib/list-state';

const codec = listStateCodec(['username', 'fullname'] as const, 'username');
const SEARCH_DEBOUNCE_MS = 300;

/** How one policy reaches the user, as a short sentence. */
function ViaText({ via }: { via: UserPolicyVia }) {
  const { t } = useTranslation();
  if (via.kind === 'everyone')
    return <>{t('users.policyView.viaEveryone', 'Everyone (in no policy group)')}</>;
  if (via.kind === 'user') {
    return (
      <>
        {t('users.policyView.viaUser', 'Directly, through {{policyGroup}}', { policyGroup: via.policyGroup })}
      </>
    );
  }
  return (
    <>
      {t('users.policyView.viaGroup', 'Group {{group}}, through {{policyGroup}}', {
        group: via.group,
        policyGroup: via.policyGroup,
      })}
    </>
  );
}

/** The policies that apply to one user and how each reaches them (also the user page's Policies tab). */
export function PolicyList({ user }: { user: UserPolicyView }) {
  const { t } = useTranslation();
  if (user.policies.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('users.policyView.none', 'No policy applies')}
      </Text>
    );
  }
  return (
    <Stack component="ul" gap={4} m={0} p={0} style={{ listStyle: 'none' }}>
      {user.policies.map((policy) => (
        <li key={policy.id}>
          <Row gap={6} wrap="nowrap" align="baseline">
            <Link to={`/policy/list?policy=${policy.id}`}>{policy.name}</Link>
            {policy.enabled ? null : (
              <Badge size="xs" variant="outline" color="gray">
                {t('users.policyView.disabled', 'Disabled')}
              </Badge>
            )}
            <Text size="xs" c="dimmed">
              {policy.via.map((via, i) => (
                <span key={`${via.kind}-${via.policyGroup}-${via.group}`}>
                  {i > 0 ? '; ' : ''}
                  <ViaText via={via} />
                </span>
              ))}
            </Text>
          </Row>
        </li>
      ))}
    </Stack>
  );
}

/** `/users/user-policy-view`: which policies apply to each end user, and through which group. Server-paged. */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const pagination = useDataTablePagination();
  const [searchParams, setSearchParams] = useSearchParams();
  const state = codec.parse(searchParams);
  const query = codec.toQuery(state);
  const setState = (patch: Partial<typeof state>) =>
    setSearchParams(codec.toSearchParams({ ...state, ...patch }));

  const [searchText, setSearchText] = useState(state.q);
  const applySearch = useDebouncedCallback((q: string) => {
    setSearchParams((current) => codec.toSearchParams({ ...codec.parse(current), q, page: 1 }), {
      replace: true,
    });
  }, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    setSearchText((text) => (text.trim() === state.q.trim() ? text : state.q));
  }, [state.q]);

  const view = useQuery({
    queryKey: ['tenant', tenant, 'policies', 'user-view', query],
    queryFn: ({ signal }) => request(policyEndpoints.userPolicyView, { params: { tenant }, query, signal }),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });

  const renderBody = () => {
    if (view.isPending)
      return <LoadingState label={t('users.policyView.loading', 'Loading users and policies…')} />;
    if (view.isError && !view.data)
      return <ErrorState error={view.error} onRetry={() => void view.refetch()} />;
    if (view.data.total === 0) {
      return (
        <EmptyState
          message={
            state.q
              ? t('users.policyView.noMatch', 'No users match your search.')
              : t('users.policyView.empty', 'No users yet.')
          }
        />
      );
    }
    return (
      <DataTable<UserPolicyView>
        withTableBorder
        striped
        minHeight={150}
        records={view.data.items}
        idAccessor="id"
        fetching={view.isFetching}
        totalRecords={view.data.total}
        page={state.page}
        recordsPerPage={state.pageSize}
        onPageChange={(page) => setState({ page })}
        onRecordsPerPageChange={(size: number) =>
          setState({ pageSize: size as typeof state.pageSize, page: 1 })
        }
        recordsPerPageLabel={t('users.policyView.pageSize', 'Users per page')}
        {...pagination}
        sortStatus={{ columnAccessor: state.sort, direction: state.order }}
        onSortStatusChange={({ columnAccessor, direction }) =>
          setState({ sort: columnAccessor as typeof state.sort, order: direction, page: 1 })
        }
        columns={[
          {
            accessor: 'username',
            title: t('users.policyView.user', 'User'),
            sortable: true,
            render: (user) => (
              <Stack gap={0}>
                <Link to={`/users/${user.id}`}>{user.fullname || user.username}</Link>
                <Text size="xs" c="dimmed">
                  {user.username}
                </Text>
              </Stack>
            ),
          },
          {
            accessor: 'groups',
            title: t('users.policyView.groups', 'Groups'),
            render: (user) =>
              user.groups.length ? (
                <Row gap={4}>
                  {user.groups.map((g) => (
                    <Badge key={g.id} variant="light" size="sm">
                      {g.name}
                    </Badge>
                  ))}
                </Row>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('users.policyView.noGroups', 'No groups')}
                </Text>
              ),
          },
          {
            accessor: 'policies',
            title: t('users.policyView.policies', 'Policies that apply'),
            render: (user) => <PolicyList user={user} />,
          },
        ]}
      />
    );
  };

  return (
    <>
      <PageHeader
        title={t('users.policyView.title', 'Policies per user')}
        description={t(
          'users.policyView.description',
          'Which policies apply to each user: to everyone, to the user directly, or through a group.',
        )}
      />
      <Stack gap="md">
        <TextInput
          type="search"
          label={t('users.policyView.search', 'Search')}
          placeholder={t('users.policyView.searchPlaceholder', 'Name or e-mail')}
          value={searchText}
          onChange={(event) => {
            setSearchText(event.currentTarget.value);
            applySearch(event.currentTarget.value);
          }}
          w={{ base: '100%', sm: 320 }}
        />
        {renderBody()}
      </Stack>
    </>
  );
}
