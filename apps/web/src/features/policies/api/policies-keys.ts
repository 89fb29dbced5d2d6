/**
 * Query keys of the policies area, all under `['tenant', tenant, 'policies']`: one invalidation after a write
 * refreshes the lists, the open policy, the policy groups and the policy tests (whose outcomes follow the
 * live policy). The look-ups the editor needs (apps, categories, feeds, locations, users, groups) sit under
 * `lookup`, so they are refreshed with the rest.
 */
export const policiesKeys = {
  all: (tenant: string) => ['tenant', tenant, 'policies'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'policies', 'lists'] as const,
  detail: (tenant: string, id: string) => ['tenant', tenant, 'policies', 'detail', id] as const,
  tests: (tenant: string) => ['tenant', tenant, 'policies', 'tests'] as const,
  groups: (tenant: string) => ['tenant', tenant, 'policies', 'groups'] as const,
  group: (tenant: string, id: string) => ['tenant', tenant, 'policies', 'groups', id] as const,
  lookup: (tenant: string, what: string, q = '') =>
    ['tenant', tenant, 'policies', 'lookup', what, q] as const,
};
