import { partnerEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from './api-client';

/**
 * The partner of a tenant as its users see it (`GET /api/partner/info/:id`): its names, branding and support
 * contact. Silent: a tenant without a partner simply shows no support contact.
 */
export function partnerInfoQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: ['partner-info', tenant],
    queryFn: ({ signal }) => request(partnerEndpoints.partnerInfo, { params: { id: tenant }, signal }),
    staleTime: 10 * 60_000,
    retry: false,
    meta: { isSilent: true },
  });
}

/** The partner info of `tenant`, fetched only when `enabled` (the session names a partner). */
export function usePartnerInfo(tenant: string, enabled: boolean) {
  return useQuery({ ...partnerInfoQueryOptions(tenant), enabled: enabled && tenant !== '' });
}
