/**
 * Query keys of the roles area, all under `['tenant', tenant, 'roles']` so that one invalidation refreshes a
 * tenant's roles (an assignment changes a role's holder count). Who holds which role is the administrators
 * list's (features/admins), which the roles page composes in.
 */
export const rolesKeys = {
  all: (tenant: string) => ['tenant', tenant, 'roles'] as const,
  list: (tenant: string) => ['tenant', tenant, 'roles', 'list'] as const,
};
