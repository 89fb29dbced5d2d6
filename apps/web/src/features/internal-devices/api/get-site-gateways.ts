import { gatewayEndpoints, MAX_PAGE_SIZE } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { internalDevicesKeys } from './internal-devices-keys';

/** The tenant's site gateways, by name, for the gateway filter (`GET /api/cybernodes/:tenant?kind=site`). */
export async function getSiteGateways(tenant: string, signal?: AbortSignal) {
  const page = await request(gatewayEndpoints.listGateways, {
    params: { tenant },
    query: { kind: 'site', sort: 'name', order: 'asc', limit: MAX_PAGE_SIZE, withTotal: 'false' },
    signal,
    silent: true,
  });
  return page.items.map((gateway) => ({ id: gateway.id, name: gateway.name }));
}

export function siteGatewaysQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: internalDevicesKeys.siteGateways(tenant),
    queryFn: ({ signal }) => getSiteGateways(tenant, signal),
    staleTime: 60_000,
    meta: { isSilent: true },
  });
}

/** The site gateways to filter by; the filter offers none while they load or when the call fails. */
export function useSiteGateways(tenant: string) {
  return useQuery(siteGatewaysQueryOptions(tenant));
}
