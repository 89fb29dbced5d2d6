/**
 * Query keys of the device routes area, all under `['tenant', tenant, 'routes']` so one invalidation refreshes
 * the list, the open route and the device views, and a tenant switch never shows another tenant's cache.
 */
export const routesKeys = {
  all: (tenant: string) => ['tenant', tenant, 'routes'] as const,
  list: (tenant: string) => ['tenant', tenant, 'routes', 'list'] as const,
  detail: (tenant: string, id: string) => ['tenant', tenant, 'routes', 'detail', id] as const,
  device: (tenant: string, id: string, deviceId: string) =>
    ['tenant', tenant, 'routes', 'device', id, deviceId] as const,
  /** The gateways a route may go through (the form's picker). */
  gateways: (tenant: string) => ['tenant', tenant, 'routes', 'gateways'] as const,
  /** A parent policy as loaded for an edit. */
  policy: (tenant: string, id: string) => ['tenant', tenant, 'routes', 'policy', id] as const,
  deviceOptions: (tenant: string, q: string) => ['tenant', tenant, 'routes', 'device-options', q] as const,
};

/**
 * The policies area's cache (`['tenant', tenant, 'policies']`, see features/policies): a route is a policy rule,
 * so saving one refreshes it too. Named here as a key, not imported, since features do not import each other.
 */
export const policiesCacheKey = (tenant: string) => ['tenant', tenant, 'policies'] as const;
