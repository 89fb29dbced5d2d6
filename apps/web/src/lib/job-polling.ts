/** How often a running job (a CSV import, a bulk change) is asked for its progress. */
export const JOB_POLL_MS = 500;

/**
 * After this many answers a long job is asked once a second: the client and the server allow 100 calls a
 * minute per method and path, so 60 quick polls plus one a second stay under it in any minute.
 */
const QUICK_POLLS = 60;

/**
 * The `refetchInterval` of a job's query, given the query's state: every {@link JOB_POLL_MS} while the job
 * runs, then every second, and not at all once it is done.
 */
export function jobPollInterval(state: {
  data?: { status: string };
  dataUpdateCount: number;
}): number | false {
  if (state.data?.status !== 'running') return false;
  return state.dataUpdateCount <= QUICK_POLLS ? JOB_POLL_MS : 2 * JOB_POLL_MS;
}
