import { tokenEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { tokensKeys } from './tokens-keys';

/** One page of my API tokens, newest first (`GET /api/me/tokens`). */
export function getTokens(page: { limit: number; offset: number }, signal?: AbortSignal) {
  return request(tokenEndpoints.listTokens, { query: page, signal });
}

/** Query options of a page of tokens; silent, the panel shows a failure in place with a retry. */
export function tokensQueryOptions(tenant: string, page: { limit: number; offset: number }) {
  return queryOptions({
    queryKey: tokensKeys.list(tenant, page),
    queryFn: ({ signal }) => getTokens(page, signal),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of the signed-in administrator's tokens; `tenant` is the session's own tenant. */
export function useTokens(tenant: string, page: { limit: number; offset: number }, isEnabled = true) {
  return useQuery({ ...tokensQueryOptions(tenant, page), enabled: isEnabled });
}
