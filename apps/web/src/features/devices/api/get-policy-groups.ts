import { policyEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { inventoryKeys } from './inventory-keys';

/** The tenant's policy groups (`GET /api/policy/group/:tenant`), to move devices into one. */
export function getPolicyGroups(tenant: string, signal?: AbortSignal) {
  return request(policyEndpoints.listPolicyGroups, { params: { tenant }, signal });
}

export function policyGroupsQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: inventoryKeys.policyGroups(tenant),
    queryFn: ({ signal }) => getPolicyGroups(tenant, signal),
    meta: { isSilent: true },
  });
}

/**
 * The policy groups, fetched only while `enabled` (the move dialog is open) and the tenant has policy groups on
 * (its `policyGroups` configuration flag: off, the list answers 403).
 */
export function usePolicyGroupOptions(tenant: string, { enabled = true }: { enabled?: boolean } = {}) {
  const hasPolicyGroups = useConfigFlag('policyGroups');
  return useQuery({ ...policyGroupsQueryOptions(tenant), enabled: enabled && hasPolicyGroups });
}
