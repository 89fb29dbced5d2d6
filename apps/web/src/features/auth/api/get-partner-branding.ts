import { sessionEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/** A partner's sign-in branding (`GET /api/partner/:name`). */
export function getPartnerBranding(name: string, signal?: AbortSignal) {
  return request(sessionEndpoints.partnerBranding, { params: { name }, signal });
}

/** Query options of a partner's branding. Silent: an unknown partner simply gets the plain sign-in page. */
export function partnerBrandingQueryOptions(name: string) {
  return queryOptions({
    queryKey: ['partner', name, 'branding'],
    queryFn: ({ signal }) => getPartnerBranding(name, signal),
    staleTime: 10 * 60_000,
    meta: { isSilent: true },
  });
}

/** The branding of `name`, or nothing to fetch when there is no partner in the address. */
export function usePartnerBranding(name: string | undefined) {
  return useQuery({ ...partnerBrandingQueryOptions(name ?? ''), enabled: Boolean(name) });
}
