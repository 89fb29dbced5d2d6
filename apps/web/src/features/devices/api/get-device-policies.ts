import { policyEndpoints } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { inventoryKeys } from './inventory-keys';

/** The tenant's device (route-type) policies in precedence order, from the three policy lists (`GET /api/policy/:tenant`). */
export function useDevicePolicies(tenant: string) {
  return useQuery({
    queryKey: inventoryKeys.policyLists(tenant),
    queryFn: ({ signal }) =>
      request(policyEndpoints.listPolicies, { params: { tenant }, signal, silent: true }),
    select: (lists) => lists.device,
    meta: { isSilent: true },
  });
}
