import { type PolicyTest, type PolicyTestInput, policyEndpoints } from '@palisade/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { policiesKeys } from './policies-keys';

/** The pinned tests with their outcome against the live policy (`GET /api/policy/tests/:tenant`). */
export function usePolicyTests(tenant: string) {
  return useQuery({
    queryKey: policiesKeys.tests(tenant),
    queryFn: ({ signal }) => request(policyEndpoints.listPolicyTests, { params: { tenant }, signal }),
    meta: { isSilent: true },
  });
}

/** Options of the test mutations. */
export interface TestMutationOptions<R> {
  onSuccess?: (result: R) => void;
  /** Replaces the default error toast. */
  onError?: (error: unknown) => void;
}

/** Creates (no `id`) or replaces a policy test. */
export function useSavePolicyTest(
  tenant: string,
  { onSuccess, onError }: TestMutationOptions<PolicyTest> = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ id, body }: { id: string | null; body: PolicyTestInput }) =>
      id
        ? request(policyEndpoints.updatePolicyTest, { params: { tenant, id }, body })
        : request(policyEndpoints.createPolicyTest, { params: { tenant }, body }),
    onSuccess: async (test) => {
      await queryClient.invalidateQueries({ queryKey: policiesKeys.tests(tenant) });
      onSuccess?.(test);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}

/** Deletes policy tests by ids. */
export function useDeletePolicyTests(
  tenant: string,
  { onSuccess, onError }: TestMutationOptions<{ deleted: number }> = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (ids: string[]) =>
      request(policyEndpoints.deletePolicyTests, { params: { tenant }, body: { ids } }),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: policiesKeys.tests(tenant) });
      onSuccess?.(result);
    },
    onError: (error) => (onError ? onError(error) : showMutationError(t, error)),
  });
}
