/**
 * Query keys of the private-access area, all under `['tenant', tenant, 'private-access']` so one invalidation
 * refreshes both lists and the form's look-ups, and a tenant switch never shows another tenant's cache.
 */
export const privateAccessKeys = {
  all: (tenant: string) => ['tenant', tenant, 'private-access'] as const,
  services: (tenant: string) => ['tenant', tenant, 'private-access', 'services'] as const,
  ztnaRules: (tenant: string) => ['tenant', tenant, 'private-access', 'ztna-rules'] as const,
  /** The private-access mesh: its settings and the peers it makes. */
  mesh: (tenant: string) => ['tenant', tenant, 'private-access', 'mesh'] as const,
  /** The site gateways an entry can stand behind (the forms' picker). */
  siteGateways: (tenant: string) => ['tenant', tenant, 'private-access', 'site-gateways'] as const,
  /** The cybernodes and virtual cybernodes that can be the mesh's hub (the mesh form's picker). */
  hubCandidates: (tenant: string) => ['tenant', tenant, 'private-access', 'hub-candidates'] as const,
  /** End users matching a search (the forms' user picker). */
  userSearch: (tenant: string, q: string) => ['tenant', tenant, 'private-access', 'user-search', q] as const,
  /** The groups area's look-up (shared with the users and devices areas, refreshed by group changes). */
  groupOptions: (tenant: string) => ['tenant', tenant, 'groups', 'options'] as const,
};

/**
 * The gateways area's cache (`['tenant', tenant, 'gateways']`, see features/gateways): a saved entry moves the
 * policy version the gateways enforce, so their drift changes. Named here as a key, not imported, since features
 * do not import each other.
 */
export const gatewaysCacheKey = (tenant: string) => ['tenant', tenant, 'gateways'] as const;
