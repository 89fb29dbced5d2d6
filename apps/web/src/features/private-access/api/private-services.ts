import { type PrivateServiceInput, privateAccessEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type EntryMutationOptions, useEntryMutation } from './entry-mutation';
import { privateAccessKeys } from './private-access-keys';

/** The private services of a tenant (`GET /api/devices/:tenant/spa/services`). */
export function getPrivateServices(tenant: string, signal?: AbortSignal) {
  return request(privateAccessEndpoints.listPrivateServices, { params: { tenant }, signal });
}

/** Query options of the service list; silent, the screen shows a failure in place with a retry. */
export function privateServicesQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: privateAccessKeys.services(tenant),
    queryFn: ({ signal }) => getPrivateServices(tenant, signal),
    meta: { isSilent: true },
  });
}

export function usePrivateServices(tenant: string) {
  return useQuery(privateServicesQueryOptions(tenant));
}

/** What a save sends: the service's id (none for a new one) and the whole service. */
export interface SaveServiceVars {
  id?: string;
  body: PrivateServiceInput;
}

/** Publishes a service (`POST`), or replaces the one with `id` (`PUT …/:id`). */
export function saveService(tenant: string, { id, body }: SaveServiceVars) {
  return id
    ? request(privateAccessEndpoints.updatePrivateService, { params: { tenant, id }, body })
    : request(privateAccessEndpoints.createPrivateService, { params: { tenant }, body });
}

export function useSavePrivateService(
  tenant: string,
  options?: EntryMutationOptions<unknown, SaveServiceVars>,
) {
  return useEntryMutation(
    tenant,
    privateAccessKeys.services(tenant),
    (vars: SaveServiceVars) => saveService(tenant, vars),
    options,
  );
}

/** Stops publishing a service (`DELETE …/:id`). */
export function useDeletePrivateService(tenant: string, options?: EntryMutationOptions<unknown, string>) {
  return useEntryMutation(
    tenant,
    privateAccessKeys.services(tenant),
    (id: string) => request(privateAccessEndpoints.deletePrivateService, { params: { tenant, id } }),
    options,
  );
}
