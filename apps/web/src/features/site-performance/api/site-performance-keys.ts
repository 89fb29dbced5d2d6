import type { SitePerformanceRange } from '@palisade/contracts';

/** What one request of the screen asks for: a range, and one site or all of them. */
export interface SitePerformanceParams {
  range: SitePerformanceRange;
  gatewayId?: string;
}

/** How often the figures refresh while the tab is visible. */
export const SITE_PERFORMANCE_REFRESH_MS = 30_000;

/**
 * Query keys of the site-performance area, all under `['tenant', tenant, 'site-performance']` so a tenant switch
 * never shows another tenant's figures.
 */
export const sitePerformanceKeys = {
  all: (tenant: string) => ['tenant', tenant, 'site-performance'] as const,
  figures: (tenant: string, params: SitePerformanceParams) =>
    ['tenant', tenant, 'site-performance', params] as const,
};
