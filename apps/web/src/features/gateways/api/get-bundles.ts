import { bundleEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { gatewaysKeys } from './gateways-keys';

/** The tenant's kept bundle versions, newest first, the current one marked (`GET …/cybernodes/:tenant/bundles`). */
export function getBundles(tenant: string, signal?: AbortSignal) {
  return request(bundleEndpoints.listBundles, { params: { tenant }, signal });
}

/** Query options of the kept bundle versions. Silent: the history shows a failure in place with a retry. */
export function bundlesQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: gatewaysKeys.bundles(tenant),
    queryFn: ({ signal }) => getBundles(tenant, signal),
    meta: { isSilent: true },
  });
}

/** The kept bundle versions of a tenant. */
export function useBundles(tenant: string) {
  return useQuery(bundlesQueryOptions(tenant));
}
