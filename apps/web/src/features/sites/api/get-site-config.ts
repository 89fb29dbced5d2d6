import { GATEWAY_HEARTBEAT_MS, type SiteConfigView, siteConfigEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api-client';
import { sitesKeys } from './sites-keys';

/** A site gateway's configuration and whether it enforces it (`GET /api/devices/:tenant/:id/site-config`). */
export function getSiteConfig(tenant: string, gatewayId: string, signal?: AbortSignal, silent = false) {
  return request(siteConfigEndpoints.getSiteConfig, { params: { tenant, id: gatewayId }, signal, silent });
}

/** No such site gateway (404: unknown, another tenant's, or a cybernode), or not an id at all (400). */
export function isSiteGatewayMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** Whether the gateway may still take up the saved configuration: worth asking again every heartbeat. */
const isCatchingUp = (view: SiteConfigView | undefined) =>
  view !== undefined && !view.isApplied && view.status !== 'retired';

/**
 * Query options of one gateway's configuration. Silent: the screens show a failure in place. While the gateway
 * has not taken up the saved configuration yet, it is asked again every heartbeat (a background refresh that
 * does not move the progress bar), so "not enforced yet" turns into "enforced" without a reload.
 */
export function siteConfigQueryOptions(tenant: string, gatewayId: string) {
  return queryOptions({
    queryKey: sitesKeys.config(tenant, gatewayId),
    queryFn: ({ client, queryKey, signal }) =>
      getSiteConfig(tenant, gatewayId, signal, client.getQueryData(queryKey) !== undefined),
    refetchInterval: (query) => (isCatchingUp(query.state.data) ? GATEWAY_HEARTBEAT_MS : false),
    refetchIntervalInBackground: false,
    meta: { isSilent: true },
  });
}

/** One site gateway's configuration; not asked for while `isEnabled` is false. */
export function useSiteConfig(tenant: string, gatewayId: string, isEnabled = true) {
  return useQuery({ ...siteConfigQueryOptions(tenant, gatewayId), enabled: isEnabled });
}
