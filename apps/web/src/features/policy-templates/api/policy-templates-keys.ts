/**
 * Query keys of the policy templates of a partner console, all under `['tenant', tenant, 'policyTemplates']`.
 * `tenant` is the console's own tenant (the session's partner or platform tenant), whichever tenant is open.
 */
export const policyTemplatesKeys = {
  all: (tenant: string) => ['tenant', tenant, 'policyTemplates'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'policyTemplates', 'list'] as const,
  list: (tenant: string, query: { limit: number; offset: number }) =>
    ['tenant', tenant, 'policyTemplates', 'list', query] as const,
  detail: (tenant: string, id: string) => ['tenant', tenant, 'policyTemplates', 'detail', id] as const,
  status: (tenant: string, id: string, query: { limit: number; offset: number }) =>
    ['tenant', tenant, 'policyTemplates', 'detail', id, 'status', query] as const,
  sources: (tenant: string) => ['tenant', tenant, 'policyTemplates', 'sources'] as const,
  sourcePolicies: (tenant: string, source: string) =>
    ['tenant', tenant, 'policyTemplates', 'sources', source] as const,
};
