import { policyTemplateEndpoints } from '@palisade/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { policyTemplatesKeys } from './policy-templates-keys';

/** A page of the managed tenants with the template's state in each (`GET …/policy-templates/:id/status`). */
export function getTemplateStatus(
  tenant: string,
  id: string,
  query: { limit: number; offset: number },
  signal?: AbortSignal,
) {
  return request(policyTemplateEndpoints.policyTemplateStatus, { params: { tenant, id }, query, signal });
}

export function useTemplateStatus(tenant: string, id: string, query: { limit: number; offset: number }) {
  return useQuery({
    queryKey: policyTemplatesKeys.status(tenant, id, query),
    queryFn: ({ signal }) => getTemplateStatus(tenant, id, query, signal),
    enabled: tenant !== '' && id !== '',
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}
