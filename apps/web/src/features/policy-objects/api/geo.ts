import { policyObjectEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type ObjectMutationOptions, useObjectMutation } from './mutation';
import { policyObjectsKeys } from './policy-objects-keys';

/** Blocked countries and the GeoIP database's country list. */
export function geoQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: policyObjectsKeys.geo(tenant),
    queryFn: ({ signal }) => request(policyObjectEndpoints.getGeoControls, { params: { tenant }, signal }),
    meta: { isSilent: true },
  });
}

export function useGeoControls(tenant: string) {
  return useQuery(geoQueryOptions(tenant));
}

/** Sets the blocked countries; refused (409) when a policy test would fail. */
export function useSetGeoControls(tenant: string, options?: ObjectMutationOptions<unknown, string[]>) {
  return useObjectMutation(
    tenant,
    (blocked: string[]) =>
      request(policyObjectEndpoints.setGeoControls, { params: { tenant }, body: { blocked } }),
    options,
  );
}

/** The country of an IP in the shipped GeoIP database; asked only once an address is given. */
export function useGeoLookup(tenant: string, ip: string) {
  return useQuery({
    queryKey: policyObjectsKeys.geoLookup(tenant, ip),
    queryFn: ({ signal }) =>
      request(policyObjectEndpoints.lookupGeo, { params: { tenant }, query: { ip }, signal }),
    enabled: ip !== '',
    meta: { isSilent: true },
  });
}
