import type { InternalDeviceListQuery } from '@palisade/contracts';

/** The list query as the screens send it: every field may be left to the contract's default. */
export type InternalDevicesListParams = Partial<InternalDeviceListQuery>;

/**
 * Query keys of the internal devices (`/devices/internal-devices`, `/devices/internal-devices/{id}`), all under
 * `['tenant', tenant, 'internal-devices']`, so a tenant switch never shows another tenant's cache.
 */
export const internalDevicesKeys = {
  all: (tenant: string) => ['tenant', tenant, 'internal-devices'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'internal-devices', 'list'] as const,
  list: (tenant: string, query: InternalDevicesListParams) =>
    ['tenant', tenant, 'internal-devices', 'list', query] as const,
  detail: (tenant: string, id: string) => ['tenant', tenant, 'internal-devices', 'detail', id] as const,
  /** The site gateways the list filters by. */
  siteGateways: (tenant: string) => ['tenant', tenant, 'internal-devices', 'site-gateways'] as const,
};

/** How often the screens refresh while the tab is visible (gateways report every 5 seconds). */
export const INTERNAL_DEVICES_REFRESH_MS = 15_000;
