import { sessionEndpoints, type TransStatus } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/**
 * Verifies an e-mail address by its transaction id, then reads the transaction's status (spec §4, §7:
 * `GET user/verify/{transid}`, then `GET trans/status/web/{transid from the answer}`).
 */
export async function verifyTransaction(transid: string, signal?: AbortSignal): Promise<TransStatus> {
  const verified = await request(sessionEndpoints.verifyUser, { params: { transid }, signal });
  return request(sessionEndpoints.transStatus, { params: { transid: verified.transid }, signal });
}

/**
 * Query options of a verification. Run once per id (it changes state on the server); silent, because the
 * screen turns every outcome, failures included, into its own message.
 */
export function verifyTransactionQueryOptions(transid: string) {
  return queryOptions({
    queryKey: ['verify', transid],
    queryFn: ({ signal }) => verifyTransaction(transid, signal),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { isSilent: true },
  });
}

/** The outcome of verifying `transid`. */
export function useVerifyTransaction(transid: string) {
  return useQuery(verifyTransactionQueryOptions(transid));
}
