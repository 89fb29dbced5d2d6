import { type AppInput, policyObjectEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type ObjectMutationOptions, useObjectMutation } from './mutation';
import { type AppListParams, policyObjectsKeys } from './policy-objects-keys';

/** The app catalog and the tenant's custom apps, alphabetical (`GET /api/policy/apps/:tenant`). */
export function appsQueryOptions(tenant: string, query: AppListParams = {}) {
  return queryOptions({
    queryKey: policyObjectsKeys.apps(tenant, query),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listApps, { params: { tenant }, query, signal }),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

export function useApps(tenant: string, query: AppListParams = {}) {
  return useQuery(appsQueryOptions(tenant, query));
}

/** Creates a custom app, or replaces the one with `appid`. */
export function useSaveApp(
  tenant: string,
  options?: ObjectMutationOptions<unknown, { appid?: string; body: AppInput }>,
) {
  return useObjectMutation(
    tenant,
    ({ appid, body }: { appid?: string; body: AppInput }) =>
      appid
        ? request(policyObjectEndpoints.updateApp, { params: { tenant, appid }, body })
        : request(policyObjectEndpoints.createApp, { params: { tenant }, body }),
    options,
  );
}

/** Deletes custom apps; rules lose them. */
export function useDeleteApps(tenant: string, options?: ObjectMutationOptions<unknown, string[]>) {
  return useObjectMutation(
    tenant,
    (appids: string[]) => request(policyObjectEndpoints.deleteApps, { params: { tenant }, body: { appids } }),
    options,
  );
}

/** The apps blocked for the whole tenant (`GET /api/policy/blocked-apps/:tenant`). */
export function blockedAppsQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: policyObjectsKeys.blockedApps(tenant),
    queryFn: ({ signal }) => request(policyObjectEndpoints.getBlockedApps, { params: { tenant }, signal }),
    meta: { isSilent: true },
  });
}

export function useBlockedApps(tenant: string) {
  return useQuery(blockedAppsQueryOptions(tenant));
}

/** Sets the apps blocked for the whole tenant; refused (409) when a policy test would fail. */
export function useSetBlockedApps(tenant: string, options?: ObjectMutationOptions<unknown, string[]>) {
  return useObjectMutation(
    tenant,
    (appids: string[]) =>
      request(policyObjectEndpoints.setBlockedApps, { params: { tenant }, body: { appids } }),
    options,
  );
}
