import type { UserDevicesQuery } from '@palisade/contracts';

/** The users-and-devices query as the screen sends it: every field may be left to the contract's default. */
export type UserDevicesParams = Partial<UserDevicesQuery>;

/**
 * Query keys of the devices area, all under `['tenant', tenant, 'devices']`, so one invalidation refreshes the
 * user lists and the deployment keys of a tenant, and a tenant switch never shows another tenant's cache.
 */
export const devicesKeys = {
  all: (tenant: string) => ['tenant', tenant, 'devices'] as const,
  userLists: (tenant: string) => ['tenant', tenant, 'devices', 'users'] as const,
  userList: (tenant: string, query: UserDevicesParams) =>
    ['tenant', tenant, 'devices', 'users', query] as const,
  deploymentKeys: (tenant: string) => ['tenant', tenant, 'devices', 'keys'] as const,
  /** The groups area's look-up (shared with the users area, refreshed by group changes). */
  groupOptions: (tenant: string) => ['tenant', tenant, 'groups', 'options'] as const,
  /** What a token enrols into: public, so keyed by the token rather than a tenant. */
  enrolmentInfo: (token: string) => ['enrolment', token] as const,
};
