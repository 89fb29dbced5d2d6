/** What the assignments list asks the server: paging and search. */
export interface AssignmentsQuery {
  limit: number;
  offset: number;
  q?: string;
}

/**
 * Query keys of the roles area, all under `['tenant', tenant, 'roles']` so that one invalidation refreshes the
 * roles and the assignments of a tenant (an assignment changes a role's holder count).
 */
export const rolesKeys = {
  all: (tenant: string) => ['tenant', tenant, 'roles'] as const,
  list: (tenant: string) => ['tenant', tenant, 'roles', 'list'] as const,
  assignments: (tenant: string) => ['tenant', tenant, 'roles', 'assignments'] as const,
  assignmentPage: (tenant: string, query: AssignmentsQuery) =>
    ['tenant', tenant, 'roles', 'assignments', query] as const,
};
