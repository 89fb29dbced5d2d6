import { groupEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { groupsKeys } from './groups-keys';

/** One group (`GET /api/groups/:tenant/:id`). */
export function getGroup(tenant: string, id: string, signal?: AbortSignal) {
  return request(groupEndpoints.getGroup, { params: { tenant, id }, signal });
}

/** Query options of one group. Silent: the screens show "Group not found" or the failure in place. */
export function groupQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: groupsKeys.detail(tenant, id),
    queryFn: ({ signal }) => getGroup(tenant, id, signal),
    meta: { isSilent: true },
  });
}

/** One group by id. */
export function useGroup(tenant: string, id: string) {
  return useQuery(groupQueryOptions(tenant, id));
}
