import { roleEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminsKeys } from './admins-keys';

/** The tenant's built-in and custom roles (`GET /api/roles/:tenant`), for the role select and custom names. */
export function getRoleChoices(tenant: string, signal?: AbortSignal) {
  return request(roleEndpoints.listRoles, { params: { tenant }, signal });
}

/** Query options of the role choices; silent, a failure leaves only the built-in roles to choose from. */
export function roleChoicesQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: adminsKeys.roleChoices(tenant),
    queryFn: ({ signal }) => getRoleChoices(tenant, signal),
    meta: { isSilent: true },
  });
}

/** Built-in and custom roles of a tenant. */
export function useRoleChoices(tenant: string) {
  return useQuery(roleChoicesQueryOptions(tenant));
}
