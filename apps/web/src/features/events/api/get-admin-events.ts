import { eventEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { fetchListPage } from '../../../lib/list-state';
import { type AdminEventsParams, eventsKeys } from './events-keys';

/** One page of the admin event log (`GET /api/events/admin/:tenant`). */
export function getAdminEvents(tenant: string, query: AdminEventsParams, signal?: AbortSignal) {
  return request(eventEndpoints.listAdminEvents, { params: { tenant }, query, signal });
}

/** Query options of a page of events; the previous page stays on screen while the next one loads. */
export function adminEventsQueryOptions(tenant: string, query: AdminEventsParams) {
  return queryOptions({
    queryKey: eventsKeys.list(tenant, query),
    queryFn: ({ client, signal }) =>
      fetchListPage(client, eventsKeys.lists(tenant), query, (q) => getAdminEvents(tenant, q, signal)),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of admin events with its total. */
export function useAdminEvents(tenant: string, query: AdminEventsParams) {
  return useQuery(adminEventsQueryOptions(tenant, query));
}
