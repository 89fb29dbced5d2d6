/**
 * Query keys of the local-controls area, all under `['tenant', tenant, 'local-controls']`, so a tenant switch
 * never shows another tenant's cache and one invalidation refreshes everything of a tenant: every site gateway's
 * controls (the overview), one gateway's, and the look-ups the screens choose from.
 */
export const localControlsKeys = {
  all: (tenant: string) => ['tenant', tenant, 'local-controls'] as const,
  list: (tenant: string) => ['tenant', tenant, 'local-controls', 'list'] as const,
  one: (tenant: string, gatewayId: string) => ['tenant', tenant, 'local-controls', 'one', gatewayId] as const,
  siteGateways: (tenant: string) => ['tenant', tenant, 'local-controls', 'site-gateways'] as const,
  policies: (tenant: string) => ['tenant', tenant, 'local-controls', 'policies'] as const,
  categories: (tenant: string) => ['tenant', tenant, 'local-controls', 'categories'] as const,
  feeds: (tenant: string) => ['tenant', tenant, 'local-controls', 'feeds'] as const,
  countries: (tenant: string) => ['tenant', tenant, 'local-controls', 'countries'] as const,
};

/**
 * The gateways area's cache (`['tenant', tenant, 'gateways']`, see features/gateways): saving local controls
 * moves the policy version the gateways enforce, so their drift changes. Named here as a key, not imported,
 * since features do not import each other.
 */
export const gatewaysCacheKey = (tenant: string) => ['tenant', tenant, 'gateways'] as const;
