import { adminEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type AdminsQuery, adminsKeys } from './admins-keys';

/** One page of a tenant's administrators, by username (`GET /api/admins/:tenant`). */
export function getAdmins(tenant: string, query: AdminsQuery, signal?: AbortSignal) {
  return request(adminEndpoints.listAdmins, { params: { tenant }, query, signal });
}

/**
 * Query options of a page of administrators; the previous page stays on screen while the next one loads.
 * Silent: the panel shows a failure in place, with a retry.
 */
export function adminsQueryOptions(tenant: string, query: AdminsQuery) {
  return queryOptions({
    queryKey: adminsKeys.list(tenant, query),
    queryFn: ({ signal }) => getAdmins(tenant, query, signal),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of administrators with its total. */
export function useAdmins(tenant: string, query: AdminsQuery) {
  return useQuery(adminsQueryOptions(tenant, query));
}
