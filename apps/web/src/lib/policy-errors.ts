import { PolicyTestFailure } from '@palisade/contracts';
import { ApiError } from './api-client';

/**
 * The failing policy tests of a refused write (409 `policy_tests_failed`, the envelope's `failures`), or null
 * when the error is something else. Entries that do not match the contract are left out.
 */
export function policyTestFailures(error: unknown): PolicyTestFailure[] | null {
  if (!(error instanceof ApiError) || error.code !== 'policy_tests_failed') return null;
  return (error.failures ?? []).flatMap((item) => {
    const parsed = PolicyTestFailure.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** True when a look-up failed because there is no such object (unknown id, or not an id at all). */
export function isMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}
