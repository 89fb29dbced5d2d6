import { z } from 'zod';
import { Email, NonEmpty, Page, PageQuery, TenantName, Uuid } from './common';
import { endpoint } from './endpoint';
import { TenantKind } from './session';
import { TenantParams } from './tenants';

/**
 * The partner console (`/admin-console`): the tenants a partner manages, or every tenant for the platform.
 * A partner admin works on its own customers; a platform admin on any tenant, and moves them between partners.
 */

/** `active`, or `suspended`: its people cannot sign in and its API tokens stop working until it is resumed. */
export const TENANT_STATUSES = ['active', 'suspended'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

/** One managed tenant: who it is, its partner, its status and its size, counted live. */
export const ManagedTenant = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string(),
  kind: TenantKind,
  /** The partner that manages it (null: the platform's own, or a partner itself). */
  partner: z.string().nullable(),
  status: z.enum(TENANT_STATUSES),
  suspendedAt: z.string().nullable(),
  /** End users (usertype 0). */
  users: z.number().int(),
  devices: z.number().int(),
  /** Gateways not retired, and those of them silent for three heartbeats. */
  gateways: z.number().int(),
  gatewaysOffline: z.number().int(),
  createdAt: z.string(),
});
export type ManagedTenant = z.infer<typeof ManagedTenant>;

export const MANAGED_TENANT_SORTS = ['name', 'createdAt'] as const;

/** `q` matches the name or the display name. */
export const ManagedTenantListQuery = PageQuery.extend({
  status: z.enum(TENANT_STATUSES).optional(),
  sort: z.enum(MANAGED_TENANT_SORTS).default('name'),
});
export type ManagedTenantListQuery = z.infer<typeof ManagedTenantListQuery>;

/** A new customer tenant and its owner, who is invited by mail to choose a password. */
export const CreateManagedTenant = z.object({
  name: TenantName,
  displayName: NonEmpty(100),
  owner: z.object({
    email: Email,
    firstname: NonEmpty(100),
    lastname: NonEmpty(100),
  }),
});
export type CreateManagedTenant = z.infer<typeof CreateManagedTenant>;

export const ManagedTenantStatusUpdate = z.object({ status: z.enum(TENANT_STATUSES) });
export type ManagedTenantStatusUpdate = z.infer<typeof ManagedTenantStatusUpdate>;

/** The partner to move a tenant to (platform admins only). */
export const ManagedTenantMove = z.object({ partner: TenantName });
export type ManagedTenantMove = z.infer<typeof ManagedTenantMove>;

export const ManagedTenantParams = TenantParams.extend({ id: Uuid });

/** `:tenant` is the partner (or the platform) whose console it is. */
export const partnerEndpoints = {
  listManagedTenants: endpoint({
    method: 'GET',
    path: '/partner/:tenant/tenants',
    access: 'tenant:view',
    summary: 'The tenants a partner manages (every tenant for the platform), paged, with their counts',
    tags: ['partners'],
    params: TenantParams,
    query: ManagedTenantListQuery,
    response: Page(ManagedTenant),
  }),
  createManagedTenant: endpoint({
    method: 'POST',
    path: '/partner/:tenant/tenants',
    access: 'tenant:create',
    status: 201,
    summary: 'Create a customer tenant of the partner; its owner is invited by mail',
    tags: ['partners'],
    params: TenantParams,
    body: CreateManagedTenant,
    response: ManagedTenant,
  }),
  setManagedTenantStatus: endpoint({
    method: 'PUT',
    path: '/partner/:tenant/tenants/:id/status',
    access: 'tenant:update',
    summary: 'Suspend or resume a managed tenant',
    tags: ['partners'],
    params: ManagedTenantParams,
    body: ManagedTenantStatusUpdate,
    response: ManagedTenant,
  }),
  moveManagedTenant: endpoint({
    method: 'PUT',
    path: '/partner/:tenant/tenants/:id/partner',
    access: 'tenant:update',
    summary: 'Move a customer tenant to another partner (platform admins only)',
    tags: ['partners'],
    params: ManagedTenantParams,
    body: ManagedTenantMove,
    response: ManagedTenant,
  }),
};
