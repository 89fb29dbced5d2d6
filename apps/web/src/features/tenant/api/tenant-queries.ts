import { type Tenant, type TenantUpdate, tenantEndpoints } from '@palisade/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/** Query keys of the tenant area, scoped by tenant name (ARCHITECTURE §5). */
export const tenantKeys = {
  details: (name: string) => ['tenant', name, 'details'] as const,
  primaryUser: (name: string) => ['tenant', name, 'primary-user'] as const,
};

/** `GET /api/subscriber/tenant/:name`. */
export function tenantQuery(name: string) {
  return queryOptions({
    queryKey: tenantKeys.details(name),
    queryFn: ({ signal }) => request(tenantEndpoints.getTenant, { params: { name }, signal }),
    enabled: name !== '',
    staleTime: 60_000,
  });
}

/** `GET /api/tenant/primaryuser` (the signed-in user's tenant). */
export function primaryUserQuery(name: string) {
  return queryOptions({
    queryKey: tenantKeys.primaryUser(name),
    queryFn: ({ signal }) => request(tenantEndpoints.primaryUser, { signal }),
    staleTime: 5 * 60_000,
  });
}

/** `PUT /api/subscriber/tenant/:name`; the answer replaces the cached tenant. */
export function useUpdateTenant(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TenantUpdate) => request(tenantEndpoints.updateTenant, { params: { name }, body }),
    onSuccess: (tenant: Tenant) => {
      queryClient.setQueryData(tenantKeys.details(name), tenant);
    },
    // The screen shows its own failure toast and keeps the form values.
    meta: { isSilent: true },
  });
}
