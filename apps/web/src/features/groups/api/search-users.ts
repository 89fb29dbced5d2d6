import { userEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { groupsKeys } from './groups-keys';

/** How many users the member picker offers for one search. */
export const USER_SEARCH_LIMIT = 20;

/** End users matching `q`, for the member picker (`GET /api/subscriber/user/:tenant?q=`). */
export function searchUsers(tenant: string, q: string, signal?: AbortSignal) {
  return request(userEndpoints.listUsers, {
    params: { tenant },
    query: { limit: USER_SEARCH_LIMIT, sort: 'username', ...(q ? { q } : {}) },
    signal,
  });
}

/** Query options of one picker search; the last answer stays while the next loads. */
export function userSearchQueryOptions(tenant: string, q: string) {
  return queryOptions({
    queryKey: groupsKeys.userSearch(tenant, q),
    queryFn: ({ signal }) => searchUsers(tenant, q, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}

/** Users matching a search, fetched only while `isEnabled` (the picker is open or has text). */
export function useUserSearch(tenant: string, q: string, isEnabled = true) {
  return useQuery({ ...userSearchQueryOptions(tenant, q), enabled: isEnabled });
}
