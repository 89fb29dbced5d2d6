import { type LocationInput, policyObjectEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type ObjectMutationOptions, useObjectMutation } from './mutation';
import { policyObjectsKeys } from './policy-objects-keys';

/** Named locations with their used-by counts (`GET /api/policy/locations/:tenant`). */
export function locationsQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: policyObjectsKeys.locations(tenant),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listLocations, { params: { tenant }, signal }),
    meta: { isSilent: true },
  });
}

export function useLocations(tenant: string) {
  return useQuery(locationsQueryOptions(tenant));
}

/** Creates a location, or replaces the one with `id`. */
export function useSaveLocation(
  tenant: string,
  options?: ObjectMutationOptions<unknown, { id?: string; body: LocationInput }>,
) {
  return useObjectMutation(
    tenant,
    ({ id, body }: { id?: string; body: LocationInput }) =>
      id
        ? request(policyObjectEndpoints.updateLocation, { params: { tenant, id }, body })
        : request(policyObjectEndpoints.createLocation, { params: { tenant }, body }),
    options,
  );
}

/** Deletes locations; rules that used them lose the condition. */
export function useDeleteLocations(tenant: string, options?: ObjectMutationOptions<unknown, string[]>) {
  return useObjectMutation(
    tenant,
    (ids: string[]) => request(policyObjectEndpoints.deleteLocations, { params: { tenant }, body: { ids } }),
    options,
  );
}
