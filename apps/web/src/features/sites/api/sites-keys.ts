/**
 * Query keys of the site-configuration area, all under `['tenant', tenant, 'sites']`, so a tenant switch never
 * shows another tenant's cache and one invalidation refreshes everything of a tenant: the configuration of each
 * site gateway (by its id) and the list of the tenant's site gateways the copy screen offers.
 */
export const sitesKeys = {
  all: (tenant: string) => ['tenant', tenant, 'sites'] as const,
  configs: (tenant: string) => ['tenant', tenant, 'sites', 'config'] as const,
  config: (tenant: string, gatewayId: string) => ['tenant', tenant, 'sites', 'config', gatewayId] as const,
  gateways: (tenant: string) => ['tenant', tenant, 'sites', 'gateways'] as const,
};
