import { networkEndpoints, policyEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { isMissing } from '../../../lib/policy-errors';
import { routesKeys } from './routes-keys';

/** Every ROUTE rule of the tenant in evaluation order (`GET /api/policy/route/:tenant`). */
export function getRoutes(tenant: string, signal?: AbortSignal) {
  return request(networkEndpoints.listRoutes, { params: { tenant }, signal });
}

/** Query options of the routes; silent, the screen shows a failure in place. */
export function routesQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: routesKeys.list(tenant),
    queryFn: ({ signal }) => getRoutes(tenant, signal),
    meta: { isSilent: true },
  });
}

/** The tenant's ROUTE rules, whole (the list is not paged). */
export function useRoutes(tenant: string, isEnabled = true) {
  return useQuery({ ...routesQueryOptions(tenant), enabled: isEnabled });
}

/** One ROUTE rule by rule id (`GET /api/policy/route/:tenant/:id`). */
export function getRoute(tenant: string, id: string, signal?: AbortSignal) {
  return request(networkEndpoints.getRoute, { params: { tenant, id }, signal });
}

/** Query options of one route; a missing route (404, or an id that is not one: 400) is not asked again. */
export function routeQueryOptions(tenant: string, id: string) {
  return queryOptions({
    queryKey: routesKeys.detail(tenant, id),
    queryFn: ({ signal }) => getRoute(tenant, id, signal),
    retry: (count, error) => !isMissing(error) && count < 2,
    meta: { isSilent: true },
  });
}

/** One route; not asked for while `isEnabled` is false. */
export function useRoute(tenant: string, id: string, isEnabled = true) {
  return useQuery({ ...routeQueryOptions(tenant, id), enabled: isEnabled });
}

/** A route as one device gets it (`GET /api/policy/route/:tenant/:id/device/:deviceId`). */
export function getDeviceRoute(tenant: string, id: string, deviceId: string, signal?: AbortSignal) {
  return request(networkEndpoints.getDeviceRoute, { params: { tenant, id, deviceId }, signal });
}

/** The engine's decision for one device's traffic to a route. */
export function useDeviceRoute(tenant: string, id: string, deviceId: string, isEnabled = true) {
  return useQuery({
    queryKey: routesKeys.device(tenant, id, deviceId),
    queryFn: ({ signal }) => getDeviceRoute(tenant, id, deviceId, signal),
    retry: (count, error) => !isMissing(error) && count < 2,
    enabled: isEnabled,
    meta: { isSilent: true },
  });
}

/** The policy a route belongs to, as the edit form starts from it (`GET /api/policy/:tenant/:id`). */
export function useParentPolicy(tenant: string, policyId: string) {
  return useQuery({
    queryKey: routesKeys.policy(tenant, policyId),
    queryFn: ({ signal }) => request(policyEndpoints.getPolicy, { params: { tenant, id: policyId }, signal }),
    staleTime: 0,
    meta: { isSilent: true },
  });
}
