import { gatewayEndpoints, MAX_PAGE_SIZE, policyEndpoints, policyObjectEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { localControlsKeys } from './local-controls-keys';

// The look-ups the four screens choose from. Each is called here, not borrowed from the area that owns it,
// since features do not import each other. Silent: the screens show a failure in place with a retry.

/** How long a look-up is taken as fresh: the lists change rarely while a screen is open. */
const LOOKUP_STALE_MS = 30_000;

/**
 * The tenant's site gateways by name (`GET /api/cybernodes/:tenant?kind=site`): one page of the most a page
 * holds, which is every site gateway of nearly every tenant.
 */
export function getSiteGateways(tenant: string, signal?: AbortSignal) {
  return request(gatewayEndpoints.listGateways, {
    params: { tenant },
    query: { kind: 'site', sort: 'name', order: 'asc', limit: MAX_PAGE_SIZE },
    signal,
  });
}

export function siteGatewaysQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: localControlsKeys.siteGateways(tenant),
    queryFn: ({ signal }) => getSiteGateways(tenant, signal),
    staleTime: LOOKUP_STALE_MS,
    meta: { isSilent: true },
  });
}

export function useSiteGateways(tenant: string) {
  return useQuery(siteGatewaysQueryOptions(tenant));
}

/** The tenant's three policy lists (`GET /api/policy/:tenant`); not asked for while `isEnabled` is false. */
export function usePolicyLists(tenant: string, isEnabled: boolean) {
  return useQuery({
    queryKey: localControlsKeys.policies(tenant),
    queryFn: ({ signal }) => request(policyEndpoints.listPolicies, { params: { tenant }, signal }),
    enabled: isEnabled,
    staleTime: LOOKUP_STALE_MS,
    meta: { isSilent: true },
  });
}

/** Shipped and custom web categories (`GET /api/policy/categories/:tenant`). */
export function useWebCategories(tenant: string, isEnabled: boolean) {
  return useQuery({
    queryKey: localControlsKeys.categories(tenant),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listCategories, { params: { tenant }, signal }),
    enabled: isEnabled,
    staleTime: LOOKUP_STALE_MS,
    meta: { isSilent: true },
  });
}

/** The tenant's threat-intelligence feeds (`GET /api/policy/feeds/:tenant`). */
export function useThreatFeeds(tenant: string, isEnabled: boolean) {
  return useQuery({
    queryKey: localControlsKeys.feeds(tenant),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listFeeds, { params: { tenant }, signal }),
    enabled: isEnabled,
    staleTime: LOOKUP_STALE_MS,
    meta: { isSilent: true },
  });
}

/**
 * The countries of the shipped GeoIP database, with their English names (`GET /api/policy/geo/:tenant`, whose
 * `blocked` list is the tenant's own and not used here).
 */
export function useCountryList(tenant: string, isEnabled: boolean) {
  return useQuery({
    queryKey: localControlsKeys.countries(tenant),
    queryFn: ({ signal }) => request(policyObjectEndpoints.getGeoControls, { params: { tenant }, signal }),
    select: (geo) => geo.countries,
    enabled: isEnabled,
    staleTime: LOOKUP_STALE_MS,
    meta: { isSilent: true },
  });
}
