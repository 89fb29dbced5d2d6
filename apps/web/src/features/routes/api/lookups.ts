import { enrolmentEndpoints, type Gateway, gatewayEndpoints, MAX_PAGE_SIZE } from '@palisade/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { routesKeys } from './routes-keys';

/** The most gateways the picker offers. */
export const GATEWAY_CHOICES_CAP = 500;

/** A gateway a route can go through: enrolled (it has a host name) and not retired. */
export function isRoutable(gateway: Gateway): gateway is Gateway & { hostname: string } {
  return gateway.status !== 'retired' && gateway.hostname !== null && gateway.hostname !== '';
}

/**
 * Every gateway of the tenant (keyset pages in name order, up to {@link GATEWAY_CHOICES_CAP}) for the route
 * form's picker (`GET /api/cybernodes/:tenant`).
 */
export async function getGatewayChoices(tenant: string, signal?: AbortSignal): Promise<Gateway[]> {
  const gateways: Gateway[] = [];
  let cursor: string | undefined;
  do {
    const page = await request(gatewayEndpoints.listGateways, {
      params: { tenant },
      query: {
        sort: 'name',
        order: 'asc',
        limit: Math.min(MAX_PAGE_SIZE, GATEWAY_CHOICES_CAP - gateways.length),
        withTotal: 'false',
        ...(cursor ? { cursor } : {}),
      },
      signal,
    });
    gateways.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && gateways.length < GATEWAY_CHOICES_CAP);
  return gateways;
}

/** The tenant's gateways for the route form. */
export function useGatewayChoices(tenant: string, isEnabled = true) {
  return useQuery({
    queryKey: routesKeys.gateways(tenant),
    queryFn: ({ signal }) => getGatewayChoices(tenant, signal),
    enabled: isEnabled,
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}

/** Enrolled devices matching `q` on name or owner (`GET /api/enrolment/:tenant/devices/options?q=`). */
export function useDeviceOptions(tenant: string, q: string, isEnabled = true) {
  return useQuery({
    queryKey: routesKeys.deviceOptions(tenant, q),
    queryFn: ({ signal }) =>
      request(enrolmentEndpoints.listDeviceOptions, {
        params: { tenant },
        query: q ? { q } : {},
        signal,
      }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}
