import { z } from 'zod';
import { NonEmpty, Page, PageQuery, Uuid } from './common';
import { endpoint } from './endpoint';
import { ALL_PERMISSIONS, PermissionSchema, ROLE_PERMISSIONS, TENANT_ADMIN_ROLES } from './roles';
import { TenantParams } from './tenants';

/** A tenant's own role: a named set of permissions from the module × action matrix. */
export const CustomRole = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(PermissionSchema),
  assigned: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomRole = z.infer<typeof CustomRole>;

export const CustomRoleInput = z.object({
  name: NonEmpty(60),
  description: z.string().trim().max(300).default(''),
  permissions: z.array(PermissionSchema).max(ALL_PERMISSIONS.length),
});
export type CustomRoleInput = z.input<typeof CustomRoleInput>;

export const BuiltInRole = z.object({
  name: z.enum(TENANT_ADMIN_ROLES),
  permissions: z.array(PermissionSchema),
});

export const RolesOverview = z.object({ builtIn: z.array(BuiltInRole), custom: z.array(CustomRole) });

/** Built-in roles an administrator of a tenant can be given, with their permissions. */
export const BUILT_IN_ROLES = TENANT_ADMIN_ROLES.map((name) => ({
  name,
  permissions: [...ROLE_PERMISSIONS[name]],
}));

/** A row of the role-assignment list (spec §3: username, firstname, lastname) for the tenant's administrators. */
export const RoleAssignment = z.object({
  userId: z.string(),
  username: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  role: z.string(),
  customRoleId: z.string().nullable(),
  customRoleName: z.string().nullable(),
});
export type RoleAssignment = z.infer<typeof RoleAssignment>;

/** Give an administrator a built-in role, or a custom role (then `role` is ignored). */
export const AssignRoleInput = z
  .object({ role: z.enum(TENANT_ADMIN_ROLES).nullable(), customRoleId: Uuid.nullable() })
  .refine((v) => (v.role === null) !== (v.customRoleId === null), {
    message: 'validation.roleChoice',
    path: ['role'],
  });
export type AssignRoleInput = z.infer<typeof AssignRoleInput>;

/** What the assignments CSV export covers: the list's search, every page. */
export const RoleAssignmentsExportQuery = z.object({ q: z.string().trim().max(200).optional() });
export type RoleAssignmentsExportQuery = z.infer<typeof RoleAssignmentsExportQuery>;

/**
 * Columns of the role assignments CSV, in order: `role` is the built-in role's name or the custom role's name;
 * `status` is the administrator's (invited, active or suspended).
 */
export const ROLE_ASSIGNMENT_CSV_COLUMNS = ['username', 'firstname', 'lastname', 'role', 'status'] as const;

const RoleParams = TenantParams.extend({ id: Uuid });

export const roleEndpoints = {
  listRoles: endpoint({
    method: 'GET',
    path: '/roles/:tenant',
    access: 'roles:view',
    summary: 'Built-in and custom roles',
    tags: ['roles'],
    params: TenantParams,
    response: RolesOverview,
  }),
  createRole: endpoint({
    method: 'POST',
    path: '/roles/:tenant',
    access: 'roles:create',
    summary: 'Create a custom role',
    tags: ['roles'],
    params: TenantParams,
    body: CustomRoleInput,
    response: CustomRole,
    status: 201,
  }),
  updateRole: endpoint({
    method: 'PUT',
    path: '/roles/:tenant/:id',
    access: 'roles:update',
    summary: 'Update a custom role',
    tags: ['roles'],
    params: RoleParams,
    body: CustomRoleInput,
    response: CustomRole,
  }),
  deleteRole: endpoint({
    method: 'DELETE',
    path: '/roles/:tenant/:id',
    access: 'roles:delete',
    summary: 'Delete a custom role nobody holds',
    tags: ['roles'],
    params: RoleParams,
    response: z.object({ deleted: z.literal(true) }),
  }),
  listAssignments: endpoint({
    method: 'GET',
    path: '/roles/:tenant/assignments',
    access: 'roles:view',
    summary: "The tenant's administrators and their roles",
    tags: ['roles'],
    params: TenantParams,
    query: PageQuery,
    response: Page(RoleAssignment),
  }),
  exportAssignments: endpoint({
    method: 'GET',
    path: '/roles/:tenant/assignments/export',
    access: 'roles:view',
    summary:
      "The tenant's administrators matching a search with their roles, as CSV (username,firstname,lastname,role,status)",
    tags: ['roles'],
    params: TenantParams,
    query: RoleAssignmentsExportQuery,
    response: z.string(),
  }),
  assignRole: endpoint({
    method: 'PUT',
    path: '/roles/:tenant/assignments/:id',
    access: 'roles:update',
    summary: "Change an administrator's role",
    tags: ['roles'],
    params: RoleParams,
    body: AssignRoleInput,
    response: RoleAssignment,
  }),
};
