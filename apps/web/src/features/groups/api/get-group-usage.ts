import { groupEndpoints } from '@palisade/contracts';
import { queryOptions, useQueries } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { groupsKeys } from './groups-keys';

/** Where a group is used: members and referring objects (`GET /api/groups/:tenant/:id/usage`). */
export function getGroupUsage(tenant: string, id: string, signal?: AbortSignal) {
  return request(groupEndpoints.getGroupUsage, { params: { tenant, id }, signal });
}

/** Query options of a group's usage; always fetched fresh, since a delete is decided on it. */
export function groupUsageQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: groupsKeys.usage(tenant, id),
    queryFn: ({ signal }) => getGroupUsage(tenant, id, signal),
    staleTime: 0,
    meta: { isSilent: true },
  });
}

/**
 * The usage of each of `ids` (for the delete confirmation), fetched only while `isEnabled`. Combined into one
 * result: pending until all answered, failed if any failed.
 */
export function useGroupUsages(tenant: string, ids: string[], isEnabled: boolean) {
  return useQueries({
    queries: ids.map((id) => ({ ...groupUsageQueryOptions(tenant, id), enabled: isEnabled })),
    combine: (results) => ({
      usages: results.map((result) => result.data),
      isPending: results.some((result) => result.isPending),
      error: results.find((result) => result.isError)?.error ?? null,
      refetch: () => Promise.all(results.filter((r) => r.isError).map((result) => result.refetch())),
    }),
  });
}
