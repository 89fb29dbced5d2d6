import { policyTemplateEndpoints } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { policyTemplatesKeys } from './policy-templates-keys';

/** One template with its policies and objects (`GET /api/partner/:tenant/policy-templates/:id`). */
export function getPolicyTemplate(tenant: string, id: string, signal?: AbortSignal) {
  return request(policyTemplateEndpoints.getPolicyTemplate, { params: { tenant, id }, signal });
}

export function usePolicyTemplate(tenant: string, id: string) {
  return useQuery({
    queryKey: policyTemplatesKeys.detail(tenant, id),
    queryFn: ({ signal }) => getPolicyTemplate(tenant, id, signal),
    enabled: tenant !== '' && id !== '',
    meta: { isSilent: true },
  });
}
