import { groupEndpoints } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { jobPollInterval } from '../../../lib/job-polling';
import { groupsKeys } from './groups-keys';

/** Progress and row errors of a groups import (`GET /api/groups/:tenant/import/:id`). */
export function getGroupImportJob(tenant: string, id: string, signal?: AbortSignal) {
  // Polling is background work: it does not count as a call in progress.
  return request(groupEndpoints.groupImportJob, { params: { tenant, id }, signal, silent: true });
}

/** Query options of a groups import: polled while it runs, then left alone. */
export function groupImportJobQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: groupsKeys.importJob(tenant, id),
    queryFn: ({ signal }) => getGroupImportJob(tenant, id, signal),
    refetchInterval: (query) => jobPollInterval(query.state),
    refetchIntervalInBackground: true,
    meta: { isSilent: true },
  });
}
