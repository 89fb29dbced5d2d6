import { z } from 'zod';
import { Email, NonEmpty, Ok, Page, PageQuery, Uuid } from './common';
import { endpoint } from './endpoint';
import { TENANT_ADMIN_ROLES } from './roles';
import { Password } from './session';
import { TenantParams } from './tenants';

export const ADMIN_STATUSES = ['invited', 'active', 'suspended'] as const;

/** An administrator of a tenant (usertype 1). */
export const Admin = z.object({
  id: z.string(),
  username: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  role: z.string(),
  customRoleId: z.string().nullable(),
  status: z.enum(ADMIN_STATUSES),
  createdAt: z.string(),
});
export type Admin = z.infer<typeof Admin>;

export const InviteAdminInput = z
  .object({
    email: Email,
    firstname: NonEmpty(100),
    lastname: NonEmpty(100),
    role: z.enum(TENANT_ADMIN_ROLES).nullable(),
    customRoleId: Uuid.nullable(),
  })
  .refine((v) => (v.role === null) !== (v.customRoleId === null), {
    message: 'validation.roleChoice',
    path: ['role'],
  });
export type InviteAdminInput = z.infer<typeof InviteAdminInput>;

/** What the invitation page shows before the password is chosen. */
export const Invitation = z.object({
  email: z.string(),
  firstname: z.string(),
  tenantDisplayName: z.string(),
  expiresAt: z.string(),
});

const AdminParams = TenantParams.extend({ id: Uuid });
const TransParams = z.object({ transid: z.string().min(1).max(200) });

export const adminEndpoints = {
  listAdmins: endpoint({
    method: 'GET',
    path: '/admins/:tenant',
    access: 'roles:view',
    summary: "The tenant's administrators",
    tags: ['admins'],
    params: TenantParams,
    query: PageQuery,
    response: Page(Admin),
  }),
  inviteAdmin: endpoint({
    method: 'POST',
    path: '/admins/:tenant/invite',
    access: 'roles:create',
    summary: 'Invite an administrator by e-mail',
    tags: ['admins'],
    params: TenantParams,
    body: InviteAdminInput,
    response: Admin,
    status: 201,
  }),
  suspendAdmin: endpoint({
    method: 'PUT',
    path: '/admins/:tenant/:id/suspension',
    access: 'roles:update',
    summary: 'Suspend or reinstate an administrator',
    tags: ['admins'],
    params: AdminParams,
    body: z.object({ suspended: z.boolean() }),
    response: Admin,
  }),
  removeAdmin: endpoint({
    method: 'DELETE',
    path: '/admins/:tenant/:id',
    access: 'roles:delete',
    summary: 'Remove an administrator',
    tags: ['admins'],
    params: AdminParams,
    response: z.object({ deleted: z.literal(true) }),
  }),
  getInvitation: endpoint({
    method: 'GET',
    path: '/invite/:transid',
    access: 'public',
    summary: 'An open invitation',
    tags: ['admins'],
    params: TransParams,
    response: Invitation,
  }),
  acceptInvitation: endpoint({
    method: 'POST',
    path: '/invite/:transid/accept',
    access: 'public',
    summary: 'Accept an invitation and choose a password',
    tags: ['admins'],
    params: TransParams,
    body: z.object({ password: Password }),
    response: Ok,
  }),
};
