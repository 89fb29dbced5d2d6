import { groupEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { fetchListPage } from '../../../lib/list-state';
import { type GroupsListParams, groupsKeys } from './groups-keys';

/** One page of a tenant's groups with member counts (`GET /api/groups/:tenant`). */
export function getGroups(tenant: string, query: GroupsListParams, signal?: AbortSignal) {
  return request(groupEndpoints.listGroups, { params: { tenant }, query, signal });
}

/**
 * Query options of a groups page; the previous page stays on screen while the next one loads. Silent: the
 * list shows its failure in place, with a retry.
 */
export function groupsQueryOptions(tenant: string, query: GroupsListParams) {
  return queryOptions({
    queryKey: groupsKeys.list(tenant, query),
    queryFn: ({ client, signal }) =>
      fetchListPage(client, groupsKeys.lists(tenant), query, (q) => getGroups(tenant, q, signal)),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of groups with its total. */
export function useGroups(tenant: string, query: GroupsListParams) {
  return useQuery(groupsQueryOptions(tenant, query));
}
