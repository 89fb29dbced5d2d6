import { userEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { fetchListPage } from '../../../lib/list-state';
import { type UsersListParams, usersKeys } from './users-keys';

/** One page of a tenant's end users (`GET /api/subscriber/user/:tenant`). */
export function getUsers(tenant: string, query: UsersListParams, signal?: AbortSignal) {
  return request(userEndpoints.listUsers, { params: { tenant }, query, signal });
}

/**
 * Query options of a users page; the previous page stays on screen while the next one loads. Silent: the list
 * shows its failure in place, with a retry.
 */
export function usersQueryOptions(tenant: string, query: UsersListParams) {
  return queryOptions({
    queryKey: usersKeys.list(tenant, query),
    queryFn: ({ client, signal }) =>
      fetchListPage(client, usersKeys.lists(tenant), query, (q) => getUsers(tenant, q, signal)),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of users with its total. */
export function useUsers(tenant: string, query: UsersListParams) {
  return useQuery(usersQueryOptions(tenant, query));
}
