import { userBulkEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { jobPollInterval } from '../../../lib/job-polling';
import { usersKeys } from './users-keys';

/** Progress of a bulk change or delete (`GET /api/subscriber/user/:tenant/bulk/:id`). */
export function getBulkJob(tenant: string, id: string, signal?: AbortSignal) {
  // Polling is background work: it does not count as a call in progress.
  return request(userBulkEndpoints.bulkJob, { params: { tenant, id }, signal, silent: true });
}

/** Query options of a bulk job: polled while it runs, then left alone. */
export function bulkJobQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: usersKeys.bulkJob(tenant, id),
    queryFn: ({ signal }) => getBulkJob(tenant, id, signal),
    refetchInterval: (query) => jobPollInterval(query.state),
    refetchIntervalInBackground: true,
    meta: { isSilent: true },
  });
}

/** A bulk job, polled until it is done; disabled without an id. */
export function useBulkJob(tenant: string, id: string | null) {
  return useQuery({ ...bulkJobQueryOptions(tenant, id ?? ''), enabled: id !== null });
}
