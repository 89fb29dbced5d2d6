import { type FeatureFlag, type TenantFeatures, tenantFeatureEndpoints } from '@palisade/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { SESSION_QUERY_KEY } from '../../../lib/auth';
import { tenantFlagsKey } from '../../../lib/tenant-flags';
import { partnersKeys } from './partners-keys';

/** Query key of a managed tenant's feature flags, under the console's tenant. */
export const tenantFeaturesKey = (tenant: string, id: string) =>
  [...partnersKeys.all(tenant), 'features', id] as const;

/** A managed tenant's feature flags (`GET /api/partner/:tenant/tenants/:id/features`). */
export function getTenantFeatures(tenant: string, id: string, signal?: AbortSignal) {
  return request(tenantFeatureEndpoints.getManagedTenantFeatures, { params: { tenant, id }, signal });
}

export function tenantFeaturesQuery(tenant: string, id: string) {
  return queryOptions({
    queryKey: tenantFeaturesKey(tenant, id),
    queryFn: ({ signal }) => getTenantFeatures(tenant, id, signal),
    meta: { isSilent: true },
  });
}

/** What {@link useUpdateTenantFeatures} sends: the managed tenant and the flags that changed. */
export interface UpdateTenantFeaturesVariables {
  id: string;
  /** The managed tenant's name: its own flags (lib/tenant-flags) are fetched again. */
  name: string;
  features: Partial<Record<FeatureFlag, boolean>>;
}

/**
 * `PUT /api/partner/:tenant/tenants/:id/features`. The answer replaces the cached flags; the managed tenant's
 * flags as the console reads them while working in it, and the session (whose features are the working
 * tenant's), are fetched again. The dialog shows its own toasts.
 */
export function useUpdateTenantFeatures(tenant: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, features }: UpdateTenantFeaturesVariables) =>
      request(tenantFeatureEndpoints.updateManagedTenantFeatures, {
        params: { tenant, id },
        body: { features },
      }),
    onSuccess: async (answer: TenantFeatures, { id, name }) => {
      queryClient.setQueryData(tenantFeaturesKey(tenant, id), answer);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tenantFlagsKey(name) }),
        queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
      ]);
    },
    meta: { isSilent: true },
  });
}
