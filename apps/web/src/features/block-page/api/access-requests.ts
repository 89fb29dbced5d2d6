import { blockPageEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { type AccessRequestsQuery, blockPageKeys } from './block-page-keys';

/** One page of the tenant's access requests, newest first (`GET /api/policy/access-requests/:tenant`). */
export function getAccessRequests(tenant: string, query: AccessRequestsQuery, signal?: AbortSignal) {
  return request(blockPageEndpoints.listAccessRequests, { params: { tenant }, query, signal });
}

export function accessRequestsQueryOptions(tenant: string, query: AccessRequestsQuery) {
  return queryOptions({
    queryKey: blockPageKeys.list(tenant, query),
    queryFn: ({ signal }) => getAccessRequests(tenant, query, signal),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

export function useAccessRequests(tenant: string, query: AccessRequestsQuery) {
  return useQuery(accessRequestsQueryOptions(tenant, query));
}

/** How many requests wait for a decision (`GET /api/policy/access-requests/:tenant/count`). */
export function getAccessRequestCount(tenant: string, signal?: AbortSignal) {
  return request(blockPageEndpoints.countAccessRequests, { params: { tenant }, signal, silent: true });
}

/** The navigation badge's count: checked again every minute while the console is open. */
export function useAccessRequestCount(tenant: string, isEnabled = true) {
  return useQuery({
    queryKey: blockPageKeys.count(tenant),
    queryFn: ({ signal }) => getAccessRequestCount(tenant, signal),
    refetchInterval: 60_000,
    enabled: isEnabled && Boolean(tenant),
    meta: { isSilent: true },
  });
}

export type Decision =
  | { id: string; verb: 'approve'; minutes: number }
  | { id: string; verb: 'decline'; note?: string };

/** Approves (`…/:id/approve`) or declines (`…/:id/decline`) a request. */
export function decideAccessRequest(tenant: string, decision: Decision) {
  return decision.verb === 'approve'
    ? request(blockPageEndpoints.approveAccessRequest, {
        params: { tenant, id: decision.id },
        body: { minutes: decision.minutes },
      })
    : request(blockPageEndpoints.declineAccessRequest, {
        params: { tenant, id: decision.id },
        body: decision.note ? { note: decision.note } : {},
      });
}

/** Decides a request and refreshes the list and the badge; failures get the default toast. */
export function useDecideAccessRequest(tenant: string, { onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (decision: Decision) => decideAccessRequest(tenant, decision),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: blockPageKeys.all(tenant) });
      onSuccess?.();
    },
    onError: async (error) => {
      showMutationError(t, error);
      // Decided meanwhile by someone else: show it as it is now.
      await queryClient.invalidateQueries({ queryKey: blockPageKeys.all(tenant) });
    },
  });
}
