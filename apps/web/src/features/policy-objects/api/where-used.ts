import { type ObjectKind, policyEndpoints } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { policyObjectsKeys } from './policy-objects-keys';

/**
 * The rules and policy groups that use an object (`GET /api/policy/where-used/:tenant?kind=&id=`). Always
 * fetched fresh, since a delete is decided on it; only while `isEnabled` (the dialog is open).
 */
export function useWhereUsed(tenant: string, kind: ObjectKind, id: string, isEnabled: boolean) {
  return useQuery({
    queryKey: policyObjectsKeys.whereUsed(tenant, kind, id),
    queryFn: ({ signal }) =>
      request(policyEndpoints.whereUsed, { params: { tenant }, query: { kind, id }, signal }),
    enabled: isEnabled,
    staleTime: 0,
    meta: { isSilent: true },
  });
}
