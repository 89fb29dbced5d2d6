import { type MutationFunction, useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../../lib/form-errors';
import { showMutationError } from '../../../lib/mutation-toast';
import { policyObjectsKeys } from './policy-objects-keys';

/** Options of {@link useObjectMutation}. */
export interface ObjectMutationOptions<TResult, TVars> {
  onSuccess?: (result: TResult, variables: TVars) => void;
  /** Replaces the default error toast (forms put details on fields, test failures in an alert). */
  onError?: (error: unknown, variables: TVars) => void;
}

/**
 * A write to a policy object. On success it refreshes every policy object of the tenant (used-by counts,
 * blocked flags and the malicious-IP list depend on each other) and the policies, whose rules may have lost
 * the object. Errors toast unless the caller handles them.
 */
export function useObjectMutation<TResult, TVars>(
  tenant: string,
  mutationFn: MutationFunction<TResult, TVars>,
  { onSuccess, onError }: ObjectMutationOptions<TResult, TVars> = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn,
    onSuccess: async (result, variables) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: policyObjectsKeys.all(tenant) }),
        queryClient.invalidateQueries({ queryKey: policyObjectsKeys.policies(tenant) }),
      ]);
      onSuccess?.(result, variables);
    },
    onError: (error, variables) => (onError ? onError(error, variables) : showMutationError(t, error)),
  });
}

/** What {@link handleFormError} needs from a form. */
export interface FormErrorTarget {
  /** Puts server details on the fields (`networks.3` → the fourth network). */
  setErrors: (errors: Record<string, string>) => void;
  /** Keeps the failures of a 409 `policy_tests_failed`; returns whether the error was one. */
  captureFailures: (error: unknown) => boolean;
}

/**
 * Where a refused form save is shown: broken policy tests in the form's alert, 400 details on their fields,
 * anything else as a toast.
 */
export function handleFormError(t: TFunction, error: unknown, target: FormErrorTarget): void {
  if (target.captureFailures(error)) return;
  const errors = serverFieldErrors(error, t);
  if (Object.keys(errors).length > 0) target.setErrors(errors);
  else showMutationError(t, error);
}
