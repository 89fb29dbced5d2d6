import { telemetryEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/** The range of the dashboard's telemetry row: the last 24 hours up to the next full minute, fixed at mount. */
export function last24Hours(nowMs: number): { from: string; to: string } {
  const to = Math.ceil(nowMs / 60_000) * 60_000;
  return { from: new Date(to - 86_400_000).toISOString(), to: new Date(to).toISOString() };
}

/** The allowed and blocked series of the range (`GET /api/telemetry/:tenant/overview`). */
export function telemetryOverviewQuery(tenant: string, range: { from: string; to: string }) {
  return queryOptions({
    queryKey: ['tenant', tenant, 'dashboard', 'telemetry', 'overview', range] as const,
    queryFn: ({ signal }) =>
      request(telemetryEndpoints.telemetryOverview, { params: { tenant }, query: range, signal }),
    enabled: tenant !== '',
    meta: { isSilent: true },
  });
}

/** How many blocked categories the row lists. */
export const TOP_BLOCKED_CATEGORIES = 5;

/** The categories with the most blocked requests in the range (`GET /api/telemetry/:tenant/top`). */
export function topBlockedCategoriesQuery(tenant: string, range: { from: string; to: string }) {
  const query = {
    ...range,
    dimension: 'category',
    decision: 'block',
    limit: TOP_BLOCKED_CATEGORIES,
  } as const;
  return queryOptions({
    queryKey: ['tenant', tenant, 'dashboard', 'telemetry', 'top', query] as const,
    queryFn: ({ signal }) => request(telemetryEndpoints.telemetryTop, { params: { tenant }, query, signal }),
    enabled: tenant !== '',
    meta: { isSilent: true },
  });
}

export function useTelemetryRow(tenant: string, range: { from: string; to: string }) {
  return {
    overview: useQuery(telemetryOverviewQuery(tenant, range)),
    categories: useQuery(topBlockedCategoriesQuery(tenant, range)),
  };
}
