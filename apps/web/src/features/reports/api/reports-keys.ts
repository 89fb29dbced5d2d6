import type { AnalyticsQuery, DsbQuery } from '@palisade/contracts';

/**
 * Query keys of the reports, all under `['tenant', tenant, 'reports']`, so a tenant switch never shows another
 * tenant's figures and one invalidation refreshes a tenant's schedules.
 */
export const reportsKeys = {
  all: (tenant: string) => ['tenant', tenant, 'reports'] as const,
  dsb: (tenant: string, query: DsbQuery) => ['tenant', tenant, 'reports', 'dsb', query] as const,
  analytics: (tenant: string, range: AnalyticsQuery) =>
    ['tenant', tenant, 'reports', 'analytics', range] as const,
  weekly: (tenant: string) => ['tenant', tenant, 'reports', 'weekly-sase-insights'] as const,
  compliance: (tenant: string) => ['tenant', tenant, 'reports', 'security-compliance'] as const,
  schedules: (tenant: string) => ['tenant', tenant, 'reports', 'schedules'] as const,
};
