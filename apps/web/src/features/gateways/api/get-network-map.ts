import { type Gateway, MAX_PAGE_SIZE } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { GATEWAYS_LIVE_REFRESH_MS, gatewaysKeys } from './gateways-keys';
import { getGateways } from './get-gateways';

/** The most gateways the network map draws: beyond, a graph stops being readable (and the list says so). */
export const NETWORK_MAP_CAP = 500;

/** Every gateway of the tenant up to {@link NETWORK_MAP_CAP}, with how many there are in all. */
export interface NetworkMapData {
  gateways: Gateway[];
  /** All the tenant's gateways (exact or an estimate); more than `gateways.length` when the cap cut the list. */
  total: number;
  isTruncated: boolean;
}

/**
 * Pages through the tenant's gateways of every kind with the keyset cursor, in name order, until the last page
 * or {@link NETWORK_MAP_CAP}. Only the first page is counted.
 */
export async function getNetworkMap(
  tenant: string,
  signal?: AbortSignal,
  silent = false,
): Promise<NetworkMapData> {
  const gateways: Gateway[] = [];
  let cursor: string | undefined;
  let total: number | null = null;
  do {
    const page = await getGateways(
      tenant,
      {
        sort: 'name',
        order: 'asc',
        limit: Math.min(MAX_PAGE_SIZE, NETWORK_MAP_CAP - gateways.length),
        ...(cursor ? { cursor, withTotal: 'false' } : { withTotal: 'true' }),
      },
      signal,
      silent,
    );
    total ??= page.total;
    gateways.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && gateways.length < NETWORK_MAP_CAP);
  const all = Math.max(total ?? gateways.length, gateways.length);
  return { gateways, total: all, isTruncated: cursor !== undefined || all > gateways.length };
}

/**
 * Query options of the network map: live, refetched every heartbeat while the tab is visible; a refresh does not
 * move the progress bar. Silent: the screen shows a failure in place.
 */
export function networkMapQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: gatewaysKeys.map(tenant),
    queryFn: ({ client, queryKey, signal }) =>
      getNetworkMap(tenant, signal, client.getQueryData(queryKey) !== undefined),
    refetchInterval: GATEWAYS_LIVE_REFRESH_MS,
    refetchIntervalInBackground: false,
    meta: { isSilent: true },
  });
}

/** Every gateway of the tenant for the map, live; not asked for while `isEnabled` is false. */
export function useNetworkMap(tenant: string, isEnabled = true) {
  return useQuery({ ...networkMapQueryOptions(tenant), enabled: isEnabled });
}
