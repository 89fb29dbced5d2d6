import { policyTemplateEndpoints } from '@palisade/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { policyTemplatesKeys } from './policy-templates-keys';

/** A page of the console's templates (`GET /api/partner/:tenant/policy-templates`). */
export function getPolicyTemplates(
  tenant: string,
  query: { limit: number; offset: number },
  signal?: AbortSignal,
) {
  return request(policyTemplateEndpoints.listPolicyTemplates, { params: { tenant }, query, signal });
}

export function usePolicyTemplates(tenant: string, query: { limit: number; offset: number }) {
  return useQuery({
    queryKey: policyTemplatesKeys.list(tenant, query),
    queryFn: ({ signal }) => getPolicyTemplates(tenant, query, signal),
    enabled: tenant !== '',
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}
