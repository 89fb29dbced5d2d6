import { type PolicyGroup, type PolicyGroupInput, policyEndpoints } from '@palisade/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { policyTestFailures } from '../../../lib/policy-errors';
import { policiesKeys } from './policies-keys';

/** The tenant's policy groups (`GET /api/policy/group/:tenant`). */
export function usePolicyGroups(tenant: string) {
  return useQuery({
    queryKey: policiesKeys.groups(tenant),
    queryFn: ({ signal }) => request(policyEndpoints.listPolicyGroups, { params: { tenant }, signal }),
    meta: { isSilent: true },
  });
}

/** One policy group; fetched only while `isEnabled`. */
export function usePolicyGroup(tenant: string, id: string, isEnabled = true) {
  return useQuery({
    queryKey: policiesKeys.group(tenant, id),
    queryFn: ({ signal }) => request(policyEndpoints.getPolicyGroup, { params: { tenant, id }, signal }),
    enabled: isEnabled,
    meta: { isSilent: true },
  });
}

/** Options of the policy-group mutations. */
export interface GroupMutationOptions<R> {
  onSuccess?: (result: R) => void;
  /** Replaces the default handling (failing tests left to the screen, other errors toasted). */
  onError?: (error: unknown) => void;
}

/** Creates (no `id`) or replaces a policy group. */
export function useSavePolicyGroup(
  tenant: string,
  { onSuccess, onError }: GroupMutationOptions<PolicyGroup> = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ id, body }: { id: string | null; body: PolicyGroupInput }) =>
      id
        ? request(policyEndpoints.updatePolicyGroup, { params: { tenant, id }, body })
        : request(policyEndpoints.createPolicyGroup, { params: { tenant }, body }),
    onSuccess: async (group) => {
      queryClient.setQueryData(policiesKeys.group(tenant, group.id), group);
      await queryClient.invalidateQueries({ queryKey: policiesKeys.all(tenant) });
      onSuccess?.(group);
    },
    onError: (error) => {
      if (onError) onError(error);
      else if (!policyTestFailures(error)) showMutationError(t, error, { fieldsOnForm: true });
    },
  });
}

/** Deletes policy groups by ids. */
export function useDeletePolicyGroups(
  tenant: string,
  { onSuccess, onError }: GroupMutationOptions<{ deleted: number }> = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (ids: string[]) =>
      request(policyEndpoints.deletePolicyGroups, { params: { tenant }, body: { ids } }),
    onSuccess: async (result, ids) => {
      for (const id of ids) queryClient.removeQueries({ queryKey: policiesKeys.group(tenant, id) });
      await queryClient.invalidateQueries({ queryKey: policiesKeys.all(tenant) });
      onSuccess?.(result);
    },
    onError: (error) => {
      if (onError) onError(error);
      else if (!policyTestFailures(error)) showMutationError(t, error);
    },
  });
}
