import {
  enrolmentEndpoints,
  type Gateway,
  gatewayEndpoints,
  MAX_PAGE_SIZE,
  userEndpoints,
} from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { privateAccessKeys } from './private-access-keys';

/** How many end users the user picker offers for one search. */
export const USER_SEARCH_LIMIT = 20;

/**
 * The tenant's site gateways by name (`GET /api/cybernodes/:tenant?kind=site`): one page of the most a page
 * holds, which is every site gateway of nearly every tenant.
 */
export function getSiteGateways(tenant: string, signal?: AbortSignal) {
  return request(gatewayEndpoints.listGateways, {
    params: { tenant },
    query: { kind: 'site', sort: 'name', order: 'asc', limit: MAX_PAGE_SIZE },
    signal,
  });
}

export function siteGatewaysQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: privateAccessKeys.siteGateways(tenant),
    queryFn: ({ signal }) => getSiteGateways(tenant, signal),
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}

/** The site gateways for a form's picker; not asked for while `isEnabled` is false. */
export function useSiteGateways(tenant: string, isEnabled = true) {
  return useQuery({ ...siteGatewaysQueryOptions(tenant), enabled: isEnabled });
}

/**
 * End users matching `q` on name or username (the users-and-devices list, `GET /api/enrolment/:tenant/users`),
 * for the user picker.
 */
export function searchEndUsers(tenant: string, q: string, signal?: AbortSignal) {
  return request(enrolmentEndpoints.listUserDevices, {
    params: { tenant },
    query: { limit: USER_SEARCH_LIMIT, ...(q ? { q } : {}) },
    signal,
  });
}

/** The users matching `q`, fetched while `isEnabled`; the last answer stays while the next search runs. */
export function useEndUserSearch(tenant: string, q: string, isEnabled: boolean) {
  return useQuery({
    queryKey: privateAccessKeys.userSearch(tenant, q),
    queryFn: ({ signal }) => searchEndUsers(tenant, q, signal),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}

/** The tenant's groups as `{id, name}` (`GET /api/groups/:tenant/options`). */
export function getGroupOptions(tenant: string, signal?: AbortSignal) {
  return request(userEndpoints.listGroupOptions, { params: { tenant }, signal });
}

/** The groups for a form's picker; groups change rarely, so they stay fresh for five minutes. */
export function useGroupOptions(tenant: string, isEnabled = true) {
  return useQuery({
    queryKey: privateAccessKeys.groupOptions(tenant),
    queryFn: ({ signal }) => getGroupOptions(tenant, signal),
    enabled: isEnabled,
    staleTime: 5 * 60_000,
  });
}

/**
 * The gateways that can be the mesh's hub: the tenant's cybernodes and virtual cybernodes by name (`GET
 * /api/cybernodes/:tenant?kind=cybernode` and `?kind=virtual`, one page of the most a page holds each).
 */
export async function getHubCandidates(tenant: string, signal?: AbortSignal): Promise<Gateway[]> {
  const pages = await Promise.all(
    (['cybernode', 'virtual'] as const).map((kind) =>
      request(gatewayEndpoints.listGateways, {
        params: { tenant },
        query: { kind, sort: 'name', order: 'asc', limit: MAX_PAGE_SIZE },
        signal,
      }),
    ),
  );
  return pages
    .flatMap((page) => page.items)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** The hub candidates for the mesh form's picker; not asked for while `isEnabled` is false. */
export function useHubCandidates(tenant: string, isEnabled = true) {
  return useQuery({
    queryKey: privateAccessKeys.hubCandidates(tenant),
    queryFn: ({ signal }) => getHubCandidates(tenant, signal),
    enabled: isEnabled,
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}
