import type { DeviceListQuery } from '@palisade/contracts';

/** The device inventory's list query as the screens send it: every field may be left to the contract's default. */
export type DevicesListParams = Partial<DeviceListQuery>;

/**
 * Query keys of the device inventory (`/devices/list`, `/devices/{id}`), under the devices area's
 * `['tenant', tenant, 'devices']`: invalidating the area refreshes the inventory with the users-and-devices lists,
 * and a tenant switch never shows another tenant's cache.
 */
export const inventoryKeys = {
  all: (tenant: string) => ['tenant', tenant, 'devices', 'inventory'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'devices', 'inventory', 'list'] as const,
  list: (tenant: string, query: DevicesListParams) =>
    ['tenant', tenant, 'devices', 'inventory', 'list', query] as const,
  detail: (tenant: string, id: string) => ['tenant', tenant, 'devices', 'inventory', 'detail', id] as const,
  /** The tenant's device rules (approval, key lifetime). */
  settings: (tenant: string) => ['tenant', tenant, 'devices', 'inventory', 'settings'] as const,
  /** The policies area's list of policy groups (the same key and answer, so policy group changes refresh it). */
  policyGroups: (tenant: string) => ['tenant', tenant, 'policies', 'groups'] as const,
  /** The policies area's three lists (the same key and answer, so policy changes refresh it). */
  policyLists: (tenant: string) => ['tenant', tenant, 'policies', 'lists'] as const,
};

/** How often the device screens refresh while the tab is visible. */
export const DEVICES_LIVE_REFRESH_MS = 10_000;
