import { userBulkEndpoints } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { jobPollInterval } from '../../../lib/job-polling';
import { usersKeys } from './users-keys';

/** Progress and row errors of an import (`GET /api/subscriber/user/:tenant/import/:id`). */
export function getImportJob(tenant: string, id: string, signal?: AbortSignal) {
  // Polling is background work: it does not count as a call in progress.
  return request(userBulkEndpoints.importJob, { params: { tenant, id }, signal, silent: true });
}

/** Query options of an import job: polled while it runs (lib/job-polling), then left alone. */
export function importJobQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: usersKeys.importJob(tenant, id),
    queryFn: ({ signal }) => getImportJob(tenant, id, signal),
    refetchInterval: (query) => jobPollInterval(query.state),
    refetchIntervalInBackground: true,
    meta: { isSilent: true },
  });
}
