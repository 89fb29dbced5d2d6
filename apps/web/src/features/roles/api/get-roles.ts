import { roleEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { rolesKeys } from './roles-keys';

/** The tenant's built-in and custom roles (`GET /api/roles/:tenant`). */
export function getRoles(tenant: string, signal?: AbortSignal) {
  return request(roleEndpoints.listRoles, { params: { tenant }, signal });
}

/** Query options of the roles overview. Silent: the screen shows a failure in place, with a retry. */
export function rolesQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: rolesKeys.list(tenant),
    queryFn: ({ signal }) => getRoles(tenant, signal),
    meta: { isSilent: true },
  });
}

/** Built-in and custom roles of a tenant. */
export function useRoles(tenant: string) {
  return useQuery(rolesQueryOptions(tenant));
}
