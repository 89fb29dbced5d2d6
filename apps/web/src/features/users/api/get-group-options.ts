import { userEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { usersKeys } from './users-keys';

/** The tenant's groups as `{id, name}` (`GET /api/groups/:tenant/options`). */
export function getGroupOptions(tenant: string, signal?: AbortSignal) {
  return request(userEndpoints.listGroupOptions, { params: { tenant }, signal });
}

/** Query options of the group look-up; groups change rarely, so they stay fresh for five minutes. */
export function groupOptionsQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: usersKeys.groupOptions(tenant),
    queryFn: ({ signal }) => getGroupOptions(tenant, signal),
    staleTime: 5 * 60_000,
  });
}

/** The tenant's groups, for the group picker and for showing group names. */
export function useGroupOptions(tenant: string) {
  return useQuery(groupOptionsQueryOptions(tenant));
}
