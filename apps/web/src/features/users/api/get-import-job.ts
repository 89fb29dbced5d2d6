import { userBulkEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { usersKeys } from './users-keys';

/** How often a running import is asked for its progress. */
export const IMPORT_POLL_MS = 500;

/**
 * After this many answers a long import is asked once a second: the client and the server allow 100 calls a
 * minute per method and path, so 60 quick polls plus one a second stay under it in any minute.
 */
const QUICK_POLLS = 60;

/** Progress and row errors of an import (`GET /api/subscriber/user/:tenant/import/:id`). */
export function getImportJob(tenant: string, id: string, signal?: AbortSignal) {
  // Polling is background work: it does not count as a call in progress.
  return request(userBulkEndpoints.importJob, { params: { tenant, id }, signal, silent: true });
}

/** Query options of an import job: polled every {@link IMPORT_POLL_MS} while it runs, then left alone. */
export function importJobQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: usersKeys.importJob(tenant, id),
    queryFn: ({ signal }) => getImportJob(tenant, id, signal),
    refetchInterval: (query) => {
      if (query.state.data?.status !== 'running') return false;
      return query.state.dataUpdateCount <= QUICK_POLLS ? IMPORT_POLL_MS : 2 * IMPORT_POLL_MS;
    },
    refetchIntervalInBackground: true,
    meta: { isSilent: true },
  });
}

/** An import job, polled until it is done; disabled without an id. */
export function useImportJob(tenant: string, id: string | null) {
  return useQuery({ ...importJobQueryOptions(tenant, id ?? ''), enabled: id !== null });
}
