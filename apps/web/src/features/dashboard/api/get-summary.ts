import { dashboardEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/** `GET /api/dashboard/:tenant/summary`, keyed under the tenant. */
export function dashboardSummaryQuery(tenant: string) {
  return queryOptions({
    queryKey: ['tenant', tenant, 'dashboard', 'summary'] as const,
    queryFn: ({ signal }) => request(dashboardEndpoints.summary, { params: { tenant }, signal }),
    enabled: tenant !== '',
  });
}

/** The dashboard counts and recent admin events of a tenant. */
export function useDashboardSummary(tenant: string) {
  return useQuery(dashboardSummaryQuery(tenant));
}
