/** What the administrators list asks the server: paging and search. */
export interface AdminsQuery {
  limit: number;
  offset: number;
  q?: string;
}

/**
 * Query keys of the administrators area, all under `['tenant', tenant, 'admins']`. The roles area keeps its own
 * keys under `['tenant', tenant, 'roles']`; administrators changes invalidate that prefix too, because the role
 * assignments list and the roles' holder counts show the same people.
 */
export const adminsKeys = {
  all: (tenant: string) => ['tenant', tenant, 'admins'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'admins', 'list'] as const,
  list: (tenant: string, query: AdminsQuery) => ['tenant', tenant, 'admins', 'list', query] as const,
  roleChoices: (tenant: string) => ['tenant', tenant, 'admins', 'role-choices'] as const,
  /** The roles area's prefix (a key, not an import: features stay islands). */
  rolesArea: (tenant: string) => ['tenant', tenant, 'roles'] as const,
};
