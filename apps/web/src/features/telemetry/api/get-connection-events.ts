import { telemetryEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { fetchListPage } from '../../../lib/list-state';
import { type ConnectionEventsParams, telemetryKeys } from './telemetry-keys';

/** One page of connection events (`GET /api/events/connections/:tenant`). */
export function getConnectionEvents(tenant: string, query: ConnectionEventsParams, signal?: AbortSignal) {
  return request(telemetryEndpoints.listConnectionEvents, { params: { tenant }, query, signal });
}

/**
 * Query options of a page of connection events: the next page is asked for after the previous page's cursor
 * (keyset) and the total is counted once per filter. The previous page stays on screen while the next one loads;
 * silent, the list shows a failure in place with a retry.
 */
export function connectionEventsQueryOptions(tenant: string, query: ConnectionEventsParams) {
  return queryOptions({
    queryKey: telemetryKeys.list(tenant, 'connections', query),
    queryFn: ({ client, signal }) =>
      fetchListPage(client, telemetryKeys.lists(tenant, 'connections'), query, (q) =>
        getConnectionEvents(tenant, q, signal),
      ),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of connection events with its total. */
export function useConnectionEvents(tenant: string, query: ConnectionEventsParams) {
  return useQuery(connectionEventsQueryOptions(tenant, query));
}
