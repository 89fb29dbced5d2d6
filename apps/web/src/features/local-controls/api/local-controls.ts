import { type LocalControls, type LocalControlsView, localControlsEndpoints } from '@palisade/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api-client';
import { gatewaysCacheKey, localControlsKeys } from './local-controls-keys';

/** Every site gateway's local controls (`GET /api/devices/:tenant/local-controls`), for the overview. */
export function getAllLocalControls(tenant: string, signal?: AbortSignal) {
  return request(localControlsEndpoints.listLocalControls, { params: { tenant }, signal });
}

/** Query options of the overview; silent, the screen shows a failure in place. */
export function allLocalControlsQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: localControlsKeys.list(tenant),
    queryFn: ({ signal }) => getAllLocalControls(tenant, signal),
    meta: { isSilent: true },
  });
}

export function useAllLocalControls(tenant: string) {
  return useQuery(allLocalControlsQueryOptions(tenant));
}

/** One site gateway's local controls (`GET /api/devices/:tenant/:id/local-controls`). */
export function getLocalControls(tenant: string, gatewayId: string, signal?: AbortSignal) {
  return request(localControlsEndpoints.getLocalControls, { params: { tenant, id: gatewayId }, signal });
}

/** Query options of one gateway's controls; silent, the screen shows a failure in place. */
export function localControlsQueryOptions(tenant: string, gatewayId: string) {
  return queryOptions({
    queryKey: localControlsKeys.one(tenant, gatewayId),
    queryFn: ({ signal }) => getLocalControls(tenant, gatewayId, signal),
    meta: { isSilent: true },
  });
}

export function useLocalControls(tenant: string, gatewayId: string) {
  return useQuery(localControlsQueryOptions(tenant, gatewayId));
}

/** No such site gateway (404: unknown, another tenant's, or a cybernode), or not an id at all (400). */
export function isGatewayMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/**
 * Replaces a site gateway's local controls, all four lists at once (`PUT /api/devices/:tenant/:id/local-controls`);
 * the gateway receives them with its next bundle.
 */
export function putLocalControls(tenant: string, gatewayId: string, body: LocalControls) {
  return request(localControlsEndpoints.putLocalControls, { params: { tenant, id: gatewayId }, body });
}

/** What {@link useSaveLocalControls} sends: the gateway and its whole new controls. */
export interface SaveLocalControlsVars {
  gatewayId: string;
  body: LocalControls;
}

/** Options of {@link useSaveLocalControls}. */
export interface SaveLocalControlsOptions {
  onSuccess?: (view: LocalControlsView) => void;
  /** The caller puts field details on its field and toasts the rest. */
  onError?: (error: unknown, vars: SaveLocalControlsVars) => void;
}

/**
 * Saves a site gateway's local controls: the answer goes into that gateway's cache, the overview is asked
 * again, and so are the gateways (the policy version they should enforce moved).
 */
export function useSaveLocalControls(tenant: string, { onSuccess, onError }: SaveLocalControlsOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ gatewayId, body }: SaveLocalControlsVars) => putLocalControls(tenant, gatewayId, body),
    onSuccess: (view) => {
      queryClient.setQueryData(localControlsKeys.one(tenant, view.gatewayId), view);
      void queryClient.invalidateQueries({ queryKey: localControlsKeys.list(tenant) });
      void queryClient.invalidateQueries({ queryKey: gatewaysCacheKey(tenant) });
      onSuccess?.(view);
    },
    onError: (error, vars) => onError?.(error, vars),
  });
}
