import {
  type UserBulkDeleteInput,
  type UserBulkInput,
  type UserBulkJob,
  userBulkEndpoints,
} from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { useBulkJob } from './get-bulk-job';
import { usersKeys } from './users-keys';

/**
 * Changes many users at once (`POST /api/subscriber/user/:tenant/bulk`, body `{ids | match, action, groupId?}`).
 * Answers the job: completed for ids, running for a match.
 */
export function bulkUsers(tenant: string, body: UserBulkInput) {
  return request(userBulkEndpoints.bulkUsers, { params: { tenant }, body });
}

/** Deletes many users (`POST /api/subscriber/user/:tenant/bulk-delete`, body `{ids | match}`); answers the job. */
export function bulkDeleteUsers(tenant: string, body: UserBulkDeleteInput) {
  return request(userBulkEndpoints.bulkDeleteUsers, { params: { tenant }, body });
}

/** A bulk change or a bulk delete, as the screen asks for it. */
export type BulkRequest =
  | { kind: 'change'; body: UserBulkInput }
  | { kind: 'delete'; body: UserBulkDeleteInput };

/** Options of {@link useBulkUsers}. */
export interface UseBulkUsersOptions {
  /** The request was accepted: the job is completed already (ids) or runs now (a search). */
  onStarted?: (job: UserBulkJob, request: BulkRequest) => void;
  /** The job has finished (completed or failed); the users lists are refreshed already. */
  onFinished?: (job: UserBulkJob, request: BulkRequest) => void;
  /** Replaces the default error toast of a refused request. */
  onError?: (error: unknown, request: BulkRequest) => void;
}

/**
 * Runs a bulk change or delete to its end: sends it, polls the job while it runs (a whole search), then
 * refreshes the tenant's user lists and details. `job` is the running job, for a progress bar.
 */
export function useBulkUsers(tenant: string, { onStarted, onFinished, onError }: UseBulkUsersOptions = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const [running, setRunning] = useState<{ id: string; request: BulkRequest } | null>(null);
  const callbacks = useRef({ onStarted, onFinished, onError });
  callbacks.current = { onStarted, onFinished, onError };

  // Read through a ref by the effect below, so it always sees the latest callbacks.
  const finish = useRef(async (_job: UserBulkJob, _request: BulkRequest) => {});
  finish.current = async (job: UserBulkJob, request: BulkRequest) => {
    await queryClient.invalidateQueries({ queryKey: usersKeys.lists(tenant) });
    // Details of changed (or deleted) users are refetched when next shown.
    void queryClient.invalidateQueries({ queryKey: usersKeys.details(tenant), refetchType: 'none' });
    callbacks.current.onFinished?.(job, request);
  };

  const mutation = useMutation({
    // The global cache toast stays quiet: this hook shows its own, unless the caller handles errors.
    meta: { isSilent: true },
    mutationFn: (input: BulkRequest) =>
      input.kind === 'delete' ? bulkDeleteUsers(tenant, input.body) : bulkUsers(tenant, input.body),
    onSuccess: async (job, input) => {
      callbacks.current.onStarted?.(job, input);
      if (job.status === 'running') setRunning({ id: job.id, request: input });
      else await finish.current(job, input);
    },
    onError: (error, input) =>
      callbacks.current.onError ? callbacks.current.onError(error, input) : showMutationError(t, error),
  });

  const jobQuery = useBulkJob(tenant, running?.id ?? null);
  const polled = running && jobQuery.data?.id === running.id ? jobQuery.data : undefined;
  useEffect(() => {
    if (running && polled && polled.status !== 'running') {
      setRunning(null);
      void finish.current(polled, running.request);
    }
  }, [running, polled]);

  return {
    /** Sends a bulk request. */
    start: mutation.mutate,
    /** True while the request itself is on its way. */
    isStarting: mutation.isPending,
    /** True from the request until the job has finished. */
    isBusy: mutation.isPending || running !== null,
    /** The running job's latest progress (null while none runs or before the first poll). */
    job: running ? (polled ?? (mutation.data?.id === running.id ? mutation.data : null)) : null,
    /** True when the last progress poll failed (it is tried again). */
    isPollFailing: running !== null && jobQuery.isError,
  };
}
