import { partnerEndpoints, policyEndpoints } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { policyTemplatesKeys } from './policy-templates-keys';

/** The tenants a template can be taken from: the console's first 100 managed tenants by name (searchable). */
export function useTemplateSources(tenant: string, enabled: boolean) {
  return useQuery({
    queryKey: policyTemplatesKeys.sources(tenant),
    queryFn: ({ signal }) =>
      request(partnerEndpoints.listManagedTenants, {
        params: { tenant },
        query: { limit: 100, offset: 0 },
        signal,
      }),
    enabled: enabled && tenant !== '',
    meta: { isSilent: true },
  });
}

/** The policies of a source tenant (`GET /api/policy/:tenant`), as one list. */
export function useSourcePolicies(tenant: string, source: string) {
  return useQuery({
    queryKey: policyTemplatesKeys.sourcePolicies(tenant, source),
    queryFn: async ({ signal }) => {
      const lists = await request(policyEndpoints.listPolicies, { params: { tenant: source }, signal });
      return [...lists.user, ...lists.device, ...lists.qos];
    },
    enabled: source !== '',
    meta: { isSilent: true },
  });
}
