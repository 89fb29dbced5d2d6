import { telemetryEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { fetchListPage } from '../../../lib/list-state';
import { type DeviceEventsParams, telemetryKeys } from './telemetry-keys';

/** One page of device events (`GET /api/events/devices/:tenant`). */
export function getDeviceEvents(tenant: string, query: DeviceEventsParams, signal?: AbortSignal) {
  return request(telemetryEndpoints.listDeviceEvents, { params: { tenant }, query, signal });
}

/**
 * Query options of a page of device events: the next page is asked for after the previous page's cursor
 * (keyset) and the total is counted once per filter. The previous page stays on screen while the next one loads;
 * silent, the list shows a failure in place with a retry.
 */
export function deviceEventsQueryOptions(tenant: string, query: DeviceEventsParams) {
  return queryOptions({
    queryKey: telemetryKeys.list(tenant, 'devices', query),
    queryFn: ({ client, signal }) =>
      fetchListPage(client, telemetryKeys.lists(tenant, 'devices'), query, (q) =>
        getDeviceEvents(tenant, q, signal),
      ),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of device events with its total. */
export function useDeviceEvents(tenant: string, query: DeviceEventsParams) {
  return useQuery(deviceEventsQueryOptions(tenant, query));
}
