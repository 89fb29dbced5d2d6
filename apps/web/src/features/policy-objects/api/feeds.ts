import {
  type FeedUpdate,
  policyObjectEndpoints,
  type UploadFeedInput,
  type UrlFeedInput,
} from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { request } from '../../../lib/api-client';
import { type ObjectMutationOptions, useObjectMutation } from './mutation';
import { type MaliciousIpParams, policyObjectsKeys } from './policy-objects-keys';

/** Threat-intel feeds: built-in, uploaded and URL feeds. */
export function feedsQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: policyObjectsKeys.feeds(tenant),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listFeeds, { params: { tenant }, signal }),
    meta: { isSilent: true },
  });
}

export function useFeeds(tenant: string) {
  return useQuery(feedsQueryOptions(tenant));
}

/** Adds a URL feed; the server fetches it at once. */
export function useCreateUrlFeed(tenant: string, options?: ObjectMutationOptions<unknown, UrlFeedInput>) {
  return useObjectMutation(
    tenant,
    (body: UrlFeedInput) => request(policyObjectEndpoints.createUrlFeed, { params: { tenant }, body }),
    options,
  );
}

/** Uploads a `.txt` feed; unreadable lines come back as 400 details and nothing is saved. */
export function useUploadFeed(tenant: string, options?: ObjectMutationOptions<unknown, UploadFeedInput>) {
  return useObjectMutation(
    tenant,
    (body: UploadFeedInput) => request(policyObjectEndpoints.uploadFeed, { params: { tenant }, body }),
    options,
  );
}

/** Renames, enables or disables a feed; refused (409) when a policy test would fail. */
export function useUpdateFeed(
  tenant: string,
  options?: ObjectMutationOptions<unknown, { id: string; body: z.input<typeof FeedUpdate> }>,
) {
  return useObjectMutation(
    tenant,
    ({ id, body }: { id: string; body: z.input<typeof FeedUpdate> }) =>
      request(policyObjectEndpoints.updateFeed, { params: { tenant, id }, body }),
    options,
  );
}

/** Fetches a URL feed now. */
export function useRefreshFeed(tenant: string, options?: ObjectMutationOptions<unknown, string>) {
  return useObjectMutation(
    tenant,
    (id: string) => request(policyObjectEndpoints.refreshFeed, { params: { tenant, id } }),
    options,
  );
}

/** Deletes uploaded and URL feeds; rules lose them. */
export function useDeleteFeeds(tenant: string, options?: ObjectMutationOptions<unknown, string[]>) {
  return useObjectMutation(
    tenant,
    (ids: string[]) => request(policyObjectEndpoints.deleteFeeds, { params: { tenant }, body: { ids } }),
    options,
  );
}

/** One page of malicious IPs and CIDRs with their sources; the previous page stays while the next loads. */
export function useMaliciousIps(tenant: string, query: MaliciousIpParams) {
  return useQuery({
    queryKey: policyObjectsKeys.maliciousIps(tenant, query),
    queryFn: ({ signal }) =>
      request(policyObjectEndpoints.listMaliciousIps, { params: { tenant }, query, signal }),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}
