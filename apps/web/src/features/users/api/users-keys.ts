import type { UserListQuery } from '@palisade/contracts';

/** List query as the screen sends it: every field of the contract's query may be left to its default. */
export type UsersListParams = Partial<UserListQuery>;

/**
 * Query keys of the users area, all under `['tenant', tenant, 'users']` so that one invalidation refreshes
 * lists and details of a tenant, and a tenant switch never shows another tenant's cache.
 */
export const usersKeys = {
  all: (tenant: string) => ['tenant', tenant, 'users'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'users', 'list'] as const,
  list: (tenant: string, query: UsersListParams) => ['tenant', tenant, 'users', 'list', query] as const,
  details: (tenant: string) => ['tenant', tenant, 'users', 'detail'] as const,
  detail: (tenant: string, id: string) => ['tenant', tenant, 'users', 'detail', id] as const,
  importJob: (tenant: string, id: string) => ['tenant', tenant, 'users', 'import', id] as const,
  bulkJob: (tenant: string, id: string) => ['tenant', tenant, 'users', 'bulk', id] as const,
  groupOptions: (tenant: string) => ['tenant', tenant, 'groups', 'options'] as const,
};
