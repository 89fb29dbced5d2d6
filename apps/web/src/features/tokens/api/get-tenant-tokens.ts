import { tokenEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type TenantTokensQuery, tokensKeys } from './tokens-keys';

/** One page of every administrator's API tokens of a tenant, newest first (`GET /api/tokens/:tenant`). */
export function getTenantTokens(tenant: string, query: TenantTokensQuery, signal?: AbortSignal) {
  return request(tokenEndpoints.listTenantTokens, { params: { tenant }, query, signal });
}

/**
 * Query options of a page of the tenant's tokens; the previous page stays on screen while the next one loads.
 * Silent: the panel shows a failure in place, with a retry.
 */
export function tenantTokensQueryOptions(tenant: string, query: TenantTokensQuery) {
  return queryOptions({
    queryKey: tokensKeys.tenantList(tenant, query),
    queryFn: ({ signal }) => getTenantTokens(tenant, query, signal),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of the tenant's tokens with its total. */
export function useTenantTokens(tenant: string, query: TenantTokensQuery) {
  return useQuery(tenantTokensQueryOptions(tenant, query));
}
