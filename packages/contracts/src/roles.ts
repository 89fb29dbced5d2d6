import { z } from 'zod';

/**
 * Built-in roles (ARCHITECTURE.md §6) and the permission each grants. A permission is `module:action`.
 * The server enforces them on every route; the web only hides what a role cannot do.
 */
export const MODULES = [
  'users',
  'groups',
  'tenant',
  'events',
  'dashboard',
  'policies',
  'devices',
  'gateways',
  'billing',
  'roles',
] as const;
export type Module = (typeof MODULES)[number];
export const ACTIONS = ['view', 'create', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];
export type Permission = `${Module}:${Action}`;

export const ROLES = [
  'owner',
  'admin',
  'network_admin',
  'security_analyst',
  'helpdesk',
  'auditor',
  'billing_admin',
  'partner_admin',
  'platform_admin',
  'user',
  'custom',
] as const;
export type Role = (typeof ROLES)[number];

/** Roles an administrator of a tenant can hold (the rest belong to partners, the platform or end users). */
export const TENANT_ADMIN_ROLES = [
  'owner',
  'admin',
  'network_admin',
  'security_analyst',
  'helpdesk',
  'auditor',
  'billing_admin',
] as const satisfies readonly Role[];

const all = (module: Module): Permission[] => ACTIONS.map((action) => `${module}:${action}` as const);
const view = (...modules: Module[]): Permission[] => modules.map((module) => `${module}:view` as const);
const EVERYTHING = MODULES.flatMap(all);

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  platform_admin: EVERYTHING,
  partner_admin: EVERYTHING,
  owner: EVERYTHING,
  admin: EVERYTHING,
  network_admin: [
    ...view('users', 'groups', 'tenant', 'events', 'dashboard'),
    ...all('policies'),
    ...all('devices'),
    ...all('gateways'),
  ],
  security_analyst: [
    ...view('users', 'groups', 'tenant', 'events', 'dashboard', 'policies', 'devices', 'gateways'),
  ],
  helpdesk: [
    ...view('tenant', 'events', 'dashboard', 'groups', 'devices', 'gateways'),
    'users:view',
    'users:create',
    'users:update',
  ],
  auditor: MODULES.map((module) => `${module}:view` as const),
  billing_admin: [...view('tenant', 'dashboard'), ...all('billing')],
  user: [],
  // A custom role's permissions live with the tenant's role (custom_roles), not here.
  custom: [],
};

/** Every permission there is: the module × action matrix. */
export const ALL_PERMISSIONS: readonly Permission[] = MODULES.flatMap((m) =>
  ACTIONS.map((a) => `${m}:${a}` as const),
);

/** Whether a role holds a permission. */
export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export const PermissionSchema = z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]], {
  message: 'validation.permission',
});
