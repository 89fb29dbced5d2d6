import { gatewayEndpoints, MAX_PAGE_SIZE } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { sitesKeys } from './sites-keys';

/**
 * The tenant's site gateways, by name (`GET /api/cybernodes/:tenant?kind=site`): the first page of the most
 * one page holds, which is every site gateway of nearly every tenant; `nextCursor` says when there are more.
 */
export function getSiteGateways(tenant: string, signal?: AbortSignal) {
  return request(gatewayEndpoints.listGateways, {
    params: { tenant },
    query: { kind: 'site', sort: 'name', order: 'asc', limit: MAX_PAGE_SIZE },
    signal,
  });
}

/** Query options of the site gateway list; silent, the screen shows a failure in place. */
export function siteGatewaysQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: sitesKeys.gateways(tenant),
    queryFn: ({ signal }) => getSiteGateways(tenant, signal),
    meta: { isSilent: true },
  });
}

/** The tenant's site gateways; not asked for while `isEnabled` is false. */
export function useSiteGateways(tenant: string, isEnabled = true) {
  return useQuery({ ...siteGatewaysQueryOptions(tenant), enabled: isEnabled });
}
