import { eventEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { eventsKeys } from './events-keys';

/** One admin event with its before/after values (`GET /api/events/admin/:tenant/:id`). */
export function getAdminEvent(tenant: string, id: string, signal?: AbortSignal) {
  return request(eventEndpoints.getAdminEvent, { params: { tenant, id }, signal });
}

export function adminEventQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: eventsKeys.detail(tenant, id),
    queryFn: ({ signal }) => getAdminEvent(tenant, id, signal),
    meta: { isSilent: true },
    // An event never changes once written.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** One event; disabled while no event is chosen. */
export function useAdminEvent(tenant: string, id: string | null) {
  return useQuery({ ...adminEventQueryOptions(tenant, id ?? ''), enabled: id !== null });
}
