import { sitePerformanceEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import {
  SITE_PERFORMANCE_REFRESH_MS,
  type SitePerformanceParams,
  sitePerformanceKeys,
} from './site-performance-keys';

/** The figures of the tenant's site gateways over a range (`GET /api/devices/:tenant/site-performance`). */
export function getSitePerformance(
  tenant: string,
  { range, gatewayId }: SitePerformanceParams,
  signal?: AbortSignal,
  silent = false,
) {
  return request(sitePerformanceEndpoints.getSitePerformance, {
    params: { tenant },
    query: { range, ...(gatewayId ? { gatewayId } : {}) },
    signal,
    silent,
  });
}

/**
 * Query options of the figures. Live: refetched every {@link SITE_PERFORMANCE_REFRESH_MS} while the tab is visible
 * (TanStack pauses the interval in a background tab); the previous range's figures stay on screen while the next
 * one loads; silent, the screen shows a failure in place with a retry.
 */
export function sitePerformanceQueryOptions(tenant: string, params: SitePerformanceParams) {
  return queryOptions({
    queryKey: sitePerformanceKeys.figures(tenant, params),
    queryFn: ({ client, queryKey, signal }) => {
      // A refresh of what is on screen is background work: it does not move the progress bar.
      const isRefresh = client.getQueryData(queryKey) !== undefined;
      return getSitePerformance(tenant, params, signal, isRefresh);
    },
    placeholderData: keepPreviousData,
    refetchInterval: SITE_PERFORMANCE_REFRESH_MS,
    refetchIntervalInBackground: false,
    meta: { isSilent: true },
  });
}

/** The live figures of one site or of all of them. */
export function useSitePerformance(tenant: string, params: SitePerformanceParams) {
  return useQuery(sitePerformanceQueryOptions(tenant, params));
}

/**
 * The sites the filter offers: those of the answer for all sites over the same range. While no site is picked
 * this is the screen's own query (one request); with a site picked it is asked for once and not refreshed.
 */
export function useSiteChoices(tenant: string, range: SitePerformanceParams['range']) {
  return useQuery({
    ...sitePerformanceQueryOptions(tenant, { range }),
    refetchInterval: false,
    staleTime: 5 * 60_000,
    select: (answer) => answer.sites.map((site) => ({ value: site.gatewayId, label: site.name })),
  });
}
