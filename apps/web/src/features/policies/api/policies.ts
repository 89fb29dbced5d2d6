import {
  type PolicyInput,
  type PolicyList,
  type PolicyLists,
  type PolicySaved,
  policyEndpoints,
} from '@palisade/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { policyTestFailures } from '../../../lib/policy-errors';
import { policiesKeys } from './policies-keys';

/** The three policy lists (`GET /api/policy/:tenant`). */
export function getPolicies(tenant: string, signal?: AbortSignal) {
  return request(policyEndpoints.listPolicies, { params: { tenant }, signal });
}

/** Query options of the three lists. Silent: the screen shows a failure in place. */
export function policiesQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: policiesKeys.lists(tenant),
    queryFn: ({ signal }) => getPolicies(tenant, signal),
    meta: { isSilent: true },
  });
}

/** The qos, user and device policy lists, each ordered by precedence. */
export function usePolicies(tenant: string) {
  return useQuery(policiesQueryOptions(tenant));
}

/** One policy with its rules (`GET /api/policy/:tenant/:id`). */
export function getPolicy(tenant: string, id: string, signal?: AbortSignal) {
  return request(policyEndpoints.getPolicy, { params: { tenant, id }, signal });
}

/** One policy; fetched only while `isEnabled` (the editor is open on an existing policy). */
export function usePolicy(tenant: string, id: string, isEnabled = true) {
  return useQuery({
    queryKey: policiesKeys.detail(tenant, id),
    queryFn: ({ signal }) => getPolicy(tenant, id, signal),
    enabled: isEnabled,
    meta: { isSilent: true },
  });
}

/** Options of the policy mutations. */
export interface PolicyMutationOptions<R> {
  onSuccess?: (result: R) => void;
  /**
   * Replaces the default error handling. Without it, a refusal because of failing policy tests is left to the
   * screen (it shows them from the mutation's `error`) and anything else gets the error toast.
   */
  onError?: (error: unknown) => void;
}

function useRefreshPolicies(tenant: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: policiesKeys.all(tenant) });
}

function useDefaultError(onError?: (error: unknown) => void) {
  const { t } = useTranslation();
  return (error: unknown) => {
    if (onError) onError(error);
    else if (!policyTestFailures(error)) showMutationError(t, error);
  };
}

/** Creates (no `id`) or replaces a policy; answers the saved policy with its lint findings. */
export function savePolicy(tenant: string, id: string | null, body: PolicyInput) {
  return id
    ? request(policyEndpoints.updatePolicy, { params: { tenant, id }, body })
    : request(policyEndpoints.createPolicy, { params: { tenant }, body });
}

/** Saves a policy and refreshes the area; the saved policy goes into its detail cache. */
export function useSavePolicy(
  tenant: string,
  { onSuccess, onError }: PolicyMutationOptions<PolicySaved> = {},
) {
  const queryClient = useQueryClient();
  const refresh = useRefreshPolicies(tenant);
  const handleError = useDefaultError(onError);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ id, body }: { id: string | null; body: PolicyInput }) => savePolicy(tenant, id, body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(policiesKeys.detail(tenant, saved.policy.id), saved.policy);
      await refresh();
      onSuccess?.(saved);
    },
    onError: handleError,
  });
}

/** Enables or disables a policy (`PUT /api/policy/:tenant/:id/enabled`). */
export function useSetPolicyEnabled(
  tenant: string,
  { onSuccess, onError }: PolicyMutationOptions<PolicySaved> = {},
) {
  const refresh = useRefreshPolicies(tenant);
  const handleError = useDefaultError(onError);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      request(policyEndpoints.setPolicyEnabled, { params: { tenant, id }, body: { enabled } }),
    onSuccess: async (saved) => {
      await refresh();
      onSuccess?.(saved);
    },
    onError: handleError,
  });
}

/** Copies a policy with its rules, disabled, right after the original. */
export function useCopyPolicy(
  tenant: string,
  { onSuccess, onError }: PolicyMutationOptions<PolicySaved> = {},
) {
  const refresh = useRefreshPolicies(tenant);
  const handleError = useDefaultError(onError);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ id, name }: { id: string; name?: string }) =>
      request(policyEndpoints.copyPolicy, { params: { tenant, id }, body: name ? { name } : {} }),
    onSuccess: async (saved) => {
      await refresh();
      onSuccess?.(saved);
    },
    onError: handleError,
  });
}

/** Sets the order of one list (`PUT /api/policy/:tenant/order`, every id of the list, first = first). */
export function reorderPolicies(tenant: string, list: PolicyList, ids: string[]) {
  return request(policyEndpoints.reorderPolicies, { params: { tenant }, body: { list, ids } });
}

/** Reorders one list; the answer replaces the cached lists before the area is refreshed. */
export function useReorderPolicies(
  tenant: string,
  { onSuccess, onError }: PolicyMutationOptions<PolicyLists> = {},
) {
  const queryClient = useQueryClient();
  const refresh = useRefreshPolicies(tenant);
  const handleError = useDefaultError(onError);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ list, ids }: { list: PolicyList; ids: string[] }) => reorderPolicies(tenant, list, ids),
    onSuccess: async (lists) => {
      queryClient.setQueryData(policiesKeys.lists(tenant), lists);
      await refresh();
      onSuccess?.(lists);
    },
    onError: handleError,
  });
}

/** Deletes policies by ids (`DELETE /api/policy/:tenant`). */
export function useDeletePolicies(
  tenant: string,
  { onSuccess, onError }: PolicyMutationOptions<{ deleted: number }> = {},
) {
  const queryClient = useQueryClient();
  const refresh = useRefreshPolicies(tenant);
  const handleError = useDefaultError(onError);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (ids: string[]) =>
      request(policyEndpoints.deletePolicies, { params: { tenant }, body: { ids } }),
    onSuccess: async (result, ids) => {
      for (const id of ids) queryClient.removeQueries({ queryKey: policiesKeys.detail(tenant, id) });
      await refresh();
      onSuccess?.(result);
    },
    onError: handleError,
  });
}
