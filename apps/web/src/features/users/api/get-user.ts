import { userEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { usersKeys } from './users-keys';

/** One end user (`GET /api/subscriber/user/:tenant/:id`). */
export function getUser(tenant: string, id: string, signal?: AbortSignal) {
  return request(userEndpoints.getUser, { params: { tenant, id }, signal });
}

/** Query options of one user. Silent: the screens show "User not found" or the failure in place. */
export function userQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: usersKeys.detail(tenant, id),
    queryFn: ({ signal }) => getUser(tenant, id, signal),
    meta: { isSilent: true },
  });
}

/** One user by id. */
export function useUser(tenant: string, id: string) {
  return useQuery(userQueryOptions(tenant, id));
}
