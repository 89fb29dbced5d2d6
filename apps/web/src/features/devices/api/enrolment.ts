import { type EnrolInput, enrolmentEndpoints } from '@palisade/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { devicesKeys } from './devices-keys';

/** What an enrolment token enrols into (`GET /api/enrol/:token`, public); 404 when it is not valid. */
export function getEnrolmentInfo(token: string, signal?: AbortSignal) {
  return request(enrolmentEndpoints.enrolmentInfo, { params: { token }, signal });
}

/** Query options of the enrolment page; no retries and silent, the page shows every outcome itself. */
export function enrolmentInfoQueryOptions(token: string) {
  return queryOptions({
    queryKey: devicesKeys.enrolmentInfo(token),
    queryFn: ({ signal }) => getEnrolmentInfo(token, signal),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    meta: { isSilent: true },
  });
}

export function useEnrolmentInfo(token: string) {
  return useQuery(enrolmentInfoQueryOptions(token));
}

/** Enrols a device with a link or key (`POST /api/enrol`, public). */
export function enrol(body: EnrolInput) {
  return request(enrolmentEndpoints.enrol, { body });
}

/** Enrols this browser; the page shows success and failure itself. */
export function useEnrol() {
  return useMutation({ mutationFn: enrol, meta: { isSilent: true } });
}
