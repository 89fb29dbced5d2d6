import { type ConfigFlag, type TenantConfigurations, tenantFeatureEndpoints } from '@palisade/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { SESSION_QUERY_KEY } from '../../../lib/auth';
import { tenantFlagsKey } from '../../../lib/tenant-flags';

/** Query keys of the configurations area, under the tenant (ARCHITECTURE §5). */
export const configurationsKeys = {
  detail: (tenant: string) => ['tenant', tenant, 'configurations'] as const,
};

/** `GET /api/tenant/:tenant/configurations`. */
export function getConfigurations(tenant: string, signal?: AbortSignal) {
  return request(tenantFeatureEndpoints.getConfigurations, { params: { tenant }, signal });
}

export function configurationsQuery(tenant: string) {
  return queryOptions({
    queryKey: configurationsKeys.detail(tenant),
    queryFn: ({ signal }) => getConfigurations(tenant, signal),
    enabled: tenant !== '',
    meta: { isSilent: true },
  });
}

/** What {@link useUpdateConfiguration} sends: one flag and its new value. */
export interface ConfigurationChange {
  flag: ConfigFlag;
  value: boolean;
}

/**
 * `PUT /api/tenant/:tenant/configurations` for one flag; the answer replaces the cached configurations, and the
 * flags the whole console reads (the session's, lib/tenant-flags) are fetched again. The screen shows its own toasts.
 */
export function useUpdateConfiguration(tenant: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ flag, value }: ConfigurationChange) =>
      request(tenantFeatureEndpoints.updateConfigurations, {
        params: { tenant },
        body: { configurations: { [flag]: value } },
      }),
    onSuccess: async (answer: TenantConfigurations) => {
      queryClient.setQueryData(configurationsKeys.detail(tenant), answer);
      // The session carries the flags of the tenant it works in.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tenantFlagsKey(tenant) }),
        queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
      ]);
    },
    meta: { isSilent: true },
  });
}
