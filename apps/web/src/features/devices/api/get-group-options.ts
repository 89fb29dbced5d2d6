import { userEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { devicesKeys } from './devices-keys';

/** The tenant's groups as `{id, name}` (`GET /api/groups/:tenant/options`), for a key's auto-groups. */
export function getGroupOptions(tenant: string, signal?: AbortSignal) {
  return request(userEndpoints.listGroupOptions, { params: { tenant }, signal });
}

/** Query options of the group look-up; groups change rarely, so they stay fresh for five minutes. */
export function groupOptionsQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: devicesKeys.groupOptions(tenant),
    queryFn: ({ signal }) => getGroupOptions(tenant, signal),
    staleTime: 5 * 60_000,
  });
}

export function useGroupOptions(tenant: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...groupOptionsQueryOptions(tenant), enabled });
}
