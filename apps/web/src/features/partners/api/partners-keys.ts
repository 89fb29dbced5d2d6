import type { ManagedTenantListQuery } from '@palisade/contracts';

/** The list query as the screen sends it: every field may be left to the contract's default. */
export type ManagedTenantsListParams = Partial<ManagedTenantListQuery>;

/**
 * Query keys of the partner console (`/admin-console`), all under `['tenant', tenant, 'partners']`. `tenant` is
 * the console's own tenant (the session's partner or platform tenant), not the working tenant: the console lists
 * the tenants it manages whichever of them is open.
 */
export const partnersKeys = {
  all: (tenant: string) => ['tenant', tenant, 'partners'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'partners', 'list'] as const,
  list: (tenant: string, query: ManagedTenantsListParams) =>
    ['tenant', tenant, 'partners', 'list', query] as const,
};
