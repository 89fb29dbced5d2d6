import { enrolmentEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { devicesKeys, type UserDevicesParams } from './devices-keys';

/** One page of end users with their devices and enrolment state (`GET /api/enrolment/:tenant/users`). */
export function getUserDevices(tenant: string, query: UserDevicesParams, signal?: AbortSignal) {
  return request(enrolmentEndpoints.listUserDevices, { params: { tenant }, query, signal });
}

/**
 * Query options of a users-and-devices page; the previous page stays on screen while the next one loads.
 * Silent: the list shows its failure in place, with a retry.
 */
export function userDevicesQueryOptions(tenant: string, query: UserDevicesParams) {
  return queryOptions({
    queryKey: devicesKeys.userList(tenant, query),
    queryFn: ({ signal }) => getUserDevices(tenant, query, signal),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of users with their devices, and the total. */
export function useUserDevices(tenant: string, query: UserDevicesParams) {
  return useQuery(userDevicesQueryOptions(tenant, query));
}
