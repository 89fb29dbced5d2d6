import type { ManagedTenant } from '@palisade/contracts';
import { partnerEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import type { ListPage } from '../../../lib/list-state';
import { type ManagedTenantsListParams, partnersKeys } from './partners-keys';

/** One page of the tenants the console manages (`GET /api/partner/:tenant/tenants`). */
export function getManagedTenants(tenant: string, query: ManagedTenantsListParams, signal?: AbortSignal) {
  return request(partnerEndpoints.listManagedTenants, { params: { tenant }, query, signal });
}

/**
 * Query options of a page of managed tenants. The answer is an offset page with an exact total; it is read as
 * the shared list's page (never an estimate, no cursor). The previous page stays on screen while the next one
 * loads; silent, the list shows a failure in place with a retry.
 */
export function managedTenantsQueryOptions(tenant: string, query: ManagedTenantsListParams) {
  return queryOptions({
    queryKey: partnersKeys.list(tenant, query),
    queryFn: async ({ signal }): Promise<ListPage<ManagedTenant>> => {
      const page = await getManagedTenants(tenant, query, signal);
      return { ...page, totalIsEstimate: false, nextCursor: null };
    },
    enabled: tenant !== '',
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of managed tenants with its total. */
export function useManagedTenants(tenant: string, query: ManagedTenantsListParams, isEnabled = true) {
  return useQuery({ ...managedTenantsQueryOptions(tenant, query), enabled: tenant !== '' && isEnabled });
}
