/** What the tenant-wide token list asks the server: paging, and whether only usable tokens are listed. */
export interface TenantTokensQuery {
  limit: number;
  offset: number;
  active?: 'true' | 'false';
}

/**
 * Query keys of the API tokens area, all under `['tenant', tenant, 'tokens']`. The signed-in administrator's own
 * tokens sit under its own tenant, so a sign-in with another account never shows them; the tenant-wide list
 * (every administrator's) sits beside them, so revoking in either list refreshes the other.
 */
export const tokensKeys = {
  all: (tenant: string) => ['tenant', tenant, 'tokens'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'tokens', 'list'] as const,
  list: (tenant: string, page: { limit: number; offset: number }) =>
    ['tenant', tenant, 'tokens', 'list', page] as const,
  tenantLists: (tenant: string) => ['tenant', tenant, 'tokens', 'tenant-list'] as const,
  tenantList: (tenant: string, query: TenantTokensQuery) =>
    ['tenant', tenant, 'tokens', 'tenant-list', query] as const,
};
