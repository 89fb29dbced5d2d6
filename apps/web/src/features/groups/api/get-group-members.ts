import { groupEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { fetchListPage } from '../../../lib/list-state';
import { type GroupMembersParams, groupsKeys } from './groups-keys';

/** One page of a group's end users (`GET /api/groups/:tenant/:id/members`). */
export function getGroupMembers(tenant: string, id: string, query: GroupMembersParams, signal?: AbortSignal) {
  return request(groupEndpoints.listGroupMembers, { params: { tenant, id }, query, signal });
}

/** Query options of a members page; the previous page stays while the next one loads. Silent: shown in place. */
export function groupMembersQueryOptions(tenant: string, id: string, query: GroupMembersParams) {
  return queryOptions({
    queryKey: groupsKeys.members(tenant, id, query),
    queryFn: ({ client, signal }) =>
      fetchListPage(client, groupsKeys.memberLists(tenant, id), query, (q) =>
        getGroupMembers(tenant, id, q, signal),
      ),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of a group's members with its total. */
export function useGroupMembers(tenant: string, id: string, query: GroupMembersParams) {
  return useQuery(groupMembersQueryOptions(tenant, id, query));
}
