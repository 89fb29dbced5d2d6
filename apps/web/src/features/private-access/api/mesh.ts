import { type Mesh, type MeshSettingsInput, meshEndpoints } from '@palisade/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import type { EntryMutationOptions } from './entry-mutation';
import { gatewaysCacheKey, privateAccessKeys } from './private-access-keys';

/** The private-access mesh of a tenant (`GET /api/devices/:tenant/spa/mesh`). */
export function getMesh(tenant: string, signal?: AbortSignal) {
  return request(meshEndpoints.getMesh, { params: { tenant }, signal });
}

/** Query options of the mesh; silent, the screen shows a failure in place with a retry. */
export function meshQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: privateAccessKeys.mesh(tenant),
    queryFn: ({ signal }) => getMesh(tenant, signal),
    meta: { isSilent: true },
  });
}

export function useMesh(tenant: string) {
  return useQuery(meshQueryOptions(tenant));
}

/** Sets which site gateways and users form the mesh, and its hub (`PUT …/spa/mesh`). */
export function saveMesh(tenant: string, body: MeshSettingsInput) {
  return request(meshEndpoints.putMesh, { params: { tenant }, body });
}

/**
 * Saves the mesh settings. The answer is the mesh as it now is, kept as the screen's data; the gateways are
 * refreshed too (their bundles move with the mesh). Errors toast unless the caller handles them.
 */
export function useSaveMesh(
  tenant: string,
  { onSuccess, onError }: EntryMutationOptions<Mesh, MeshSettingsInput> = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: MeshSettingsInput) => saveMesh(tenant, body),
    onSuccess: (mesh, body) => {
      queryClient.setQueryData(privateAccessKeys.mesh(tenant), mesh);
      void queryClient.invalidateQueries({ queryKey: gatewaysCacheKey(tenant) });
      onSuccess?.(mesh, body);
    },
    onError: (error, body) => (onError ? onError(error, body) : showMutationError(t, error)),
  });
}
