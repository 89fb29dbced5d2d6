import { adminEndpoints } from '@palisade/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/** An administrator invitation behind a `/verify/:id` link; silent, the screen shows every outcome itself. */
export function invitationQueryOptions(transid: string) {
  return queryOptions({
    queryKey: ['invitation', transid],
    queryFn: ({ signal }) => request(adminEndpoints.getInvitation, { params: { transid }, signal }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    meta: { isSilent: true },
  });
}

export function useInvitation(transid: string) {
  return useQuery(invitationQueryOptions(transid));
}

/** Accepts an invitation with the chosen password. */
export function useAcceptInvitation(transid: string) {
  return useMutation({
    mutationFn: (password: string) =>
      request(adminEndpoints.acceptInvitation, { params: { transid }, body: { password } }),
    meta: { isSilent: true },
  });
}
