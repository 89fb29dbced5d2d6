import {
  enrolmentEndpoints,
  groupEndpoints,
  MAX_PAGE_SIZE,
  policyObjectEndpoints,
  userEndpoints,
} from '@palisade/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { policiesKeys } from './policies-keys';

/** How many users or groups a picker offers for one search. */
export const PICKER_SEARCH_LIMIT = 20;
/** Objects change rarely while a policy is edited. */
const LOOKUP_STALE_MS = 60_000;

/** End users matching `q` (`GET /api/subscriber/user/:tenant?q=`), fetched while `isEnabled`. */
export function useUserSearch(tenant: string, q: string, isEnabled = true) {
  return useQuery({
    queryKey: policiesKeys.lookup(tenant, 'users', q),
    queryFn: ({ signal }) =>
      request(userEndpoints.listUsers, {
        params: { tenant },
        query: { limit: PICKER_SEARCH_LIMIT, sort: 'username', ...(q ? { q } : {}) },
        signal,
      }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}

/** User groups matching `q` (`GET /api/groups/:tenant?q=`), fetched while `isEnabled`. */
export function useGroupSearch(tenant: string, q: string, isEnabled = true) {
  return useQuery({
    queryKey: policiesKeys.lookup(tenant, 'groups', q),
    queryFn: ({ signal }) =>
      request(groupEndpoints.listGroups, {
        params: { tenant },
        query: { limit: MAX_PAGE_SIZE, sort: 'name', ...(q ? { q } : {}) },
        signal,
      }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}

/** Enrolled devices matching `q` on name or owner (`GET /api/enrolment/:tenant/devices/options?q=`). */
export function useDeviceSearch(tenant: string, q: string, isEnabled = true) {
  return useQuery({
    queryKey: policiesKeys.lookup(tenant, 'devices', q),
    queryFn: ({ signal }) =>
      request(enrolmentEndpoints.listDeviceOptions, {
        params: { tenant },
        query: q ? { q } : {},
        signal,
      }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}

/** The app catalog and custom apps (`GET /api/policy/apps/:tenant`). */
export function useApps(tenant: string, isEnabled = true) {
  return useQuery({
    queryKey: policiesKeys.lookup(tenant, 'apps'),
    queryFn: ({ signal }) =>
      request(policyObjectEndpoints.listApps, { params: { tenant }, query: {}, signal }),
    enabled: isEnabled,
    staleTime: LOOKUP_STALE_MS,
    meta: { isSilent: true },
  });
}

/** Web categories (`GET /api/policy/categories/:tenant`). */
export function useCategories(tenant: string, isEnabled = true) {
  return useQuery({
    queryKey: policiesKeys.lookup(tenant, 'categories'),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listCategories, { params: { tenant }, signal }),
    enabled: isEnabled,
    staleTime: LOOKUP_STALE_MS,
    meta: { isSilent: true },
  });
}

/** Threat-intel feeds (`GET /api/policy/feeds/:tenant`). */
export function useFeeds(tenant: string, isEnabled = true) {
  return useQuery({
    queryKey: policiesKeys.lookup(tenant, 'feeds'),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listFeeds, { params: { tenant }, signal }),
    enabled: isEnabled,
    staleTime: LOOKUP_STALE_MS,
    meta: { isSilent: true },
  });
}

/** Named locations (`GET /api/policy/locations/:tenant`). */
export function useLocations(tenant: string, isEnabled = true) {
  return useQuery({
    queryKey: policiesKeys.lookup(tenant, 'locations'),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listLocations, { params: { tenant }, signal }),
    enabled: isEnabled,
    staleTime: LOOKUP_STALE_MS,
    meta: { isSilent: true },
  });
}

/** One end user by id, for showing a picked user's name (`GET /api/subscriber/user/:tenant/:id`). */
export function useUserById(tenant: string, id: string | null | undefined) {
  return useQuery({
    queryKey: policiesKeys.lookup(tenant, 'user', id ?? ''),
    queryFn: ({ signal }) => request(userEndpoints.getUser, { params: { tenant, id: id ?? '' }, signal }),
    enabled: Boolean(id),
    staleTime: 5 * 60_000,
    meta: { isSilent: true },
  });
}

/** One enrolled device by id, for showing a picked device's name (`GET /api/enrolment/:tenant/devices/:id`). */
export function useDeviceById(tenant: string, id: string | null | undefined) {
  return useQuery({
    queryKey: policiesKeys.lookup(tenant, 'device', id ?? ''),
    queryFn: ({ signal }) =>
      request(enrolmentEndpoints.getDevice, { params: { tenant, id: id ?? '' }, signal }),
    enabled: Boolean(id),
    staleTime: 5 * 60_000,
    meta: { isSilent: true },
  });
}
