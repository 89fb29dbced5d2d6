import { eventEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { eventsKeys } from './events-keys';

/**
 * How many days the tenant keeps admin events, and the most its subscription allows (`maxDays`):
 * `GET /api/events/admin/:tenant/retention`.
 */
export function getEventRetention(tenant: string, signal?: AbortSignal) {
  return request(eventEndpoints.getEventRetention, { params: { tenant }, signal });
}

export function eventRetentionQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: eventsKeys.retention(tenant),
    queryFn: ({ signal }) => getEventRetention(tenant, signal),
  });
}

export function useEventRetention(tenant: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...eventRetentionQueryOptions(tenant), enabled });
}
