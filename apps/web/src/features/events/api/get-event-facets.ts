import { eventEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { eventsKeys } from './events-keys';

/** The distinct actions and object types of the log (`GET /api/events/admin/:tenant/facets`). */
export function getEventFacets(tenant: string, signal?: AbortSignal) {
  return request(eventEndpoints.adminEventFacets, { params: { tenant }, signal });
}

export function eventFacetsQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: eventsKeys.facets(tenant),
    queryFn: ({ signal }) => getEventFacets(tenant, signal),
    staleTime: 60_000,
  });
}

/** Choices of the action and object-type filters. */
export function useEventFacets(tenant: string) {
  return useQuery(eventFacetsQueryOptions(tenant));
}
