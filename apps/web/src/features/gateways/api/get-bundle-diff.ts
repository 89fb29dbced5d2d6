import { bundleEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { gatewaysKeys } from './gateways-keys';

/**
 * What pushing a kept bundle back would change: each artefact of the current bundle against it
 * (`GET …/cybernodes/:tenant/bundles/:version/diff`).
 */
export function getBundleDiff(tenant: string, version: string, signal?: AbortSignal) {
  return request(bundleEndpoints.diffBundle, { params: { tenant, version }, signal });
}

/** Query options of a kept bundle's diff against the current one; silent, shown in place. */
export function bundleDiffQueryOptions(tenant: string, version: string) {
  return queryOptions({
    queryKey: gatewaysKeys.bundleDiff(tenant, version),
    queryFn: ({ signal }) => getBundleDiff(tenant, version, signal),
    meta: { isSilent: true },
  });
}

/** The diff of a kept bundle against the current one; not asked for while `version` is null. */
export function useBundleDiff(tenant: string, version: string | null) {
  return useQuery({ ...bundleDiffQueryOptions(tenant, version ?? ''), enabled: version !== null });
}
