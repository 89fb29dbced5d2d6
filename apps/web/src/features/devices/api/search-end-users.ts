import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { devicesKeys, type UserDevicesParams } from './devices-keys';
import { getUserDevices } from './get-user-devices';

/** How many end users a picker offers for one search. */
export const USER_PICKER_LIMIT = 20;

/**
 * End users matching `q` with their devices (the users-and-devices list, `GET /api/enrolment/:tenant/users`), for
 * a picker; fetched while `isEnabled`.
 */
export function useEndUserSearch(tenant: string, q: string, isEnabled = true) {
  const query: UserDevicesParams = { limit: USER_PICKER_LIMIT, ...(q ? { q } : {}) };
  return useQuery({
    queryKey: devicesKeys.userList(tenant, query),
    queryFn: ({ signal }) => getUserDevices(tenant, query, signal),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}

/** One end user by id (the same list narrowed to the user), for showing a picked user's name. */
export function useEndUser(tenant: string, userId: string | null | undefined) {
  const query: UserDevicesParams = { limit: 1, userId: userId ?? undefined };
  return useQuery({
    queryKey: devicesKeys.userList(tenant, query),
    queryFn: ({ signal }) => getUserDevices(tenant, query, signal),
    enabled: Boolean(userId),
    staleTime: 5 * 60_000,
    select: (page) => page.items[0] ?? null,
    meta: { isSilent: true },
  });
}
