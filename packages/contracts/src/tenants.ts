import { z } from 'zod';
import { NonEmpty, TenantName } from './common';
import { PALETTES, THEMES } from './constants';
import { endpoint } from './endpoint';
import { TenantKind } from './session';

/** A tenant (workspace) as administrators see it (spec §3 Tenant: name, themevalue). */
export const Tenant = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string(),
  kind: TenantKind,
  parent: z.string().nullable(),
  themevalue: z.enum(THEMES),
  palette: z.enum(PALETTES),
  primaryColor: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tenant = z.infer<typeof Tenant>;

export const HexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'validation.color' });

export const TenantUpdate = z.object({
  displayName: NonEmpty(100),
  themevalue: z.enum(THEMES),
  palette: z.enum(PALETTES),
  primaryColor: HexColor.nullable(),
});
export type TenantUpdate = z.infer<typeof TenantUpdate>;

export const PrimaryUser = z.object({
  email: z.string(),
  username: z.string(),
  firstname: z.string(),
  lastname: z.string(),
});

export const TenantParams = z.object({ tenant: TenantName });
export const TenantNameParams = z.object({ name: TenantName });

export const tenantEndpoints = {
  getTenant: endpoint({
    method: 'GET',
    path: '/subscriber/tenant/:name',
    access: 'tenant:view',
    summary: 'A tenant',
    tags: ['tenant'],
    params: TenantNameParams,
    response: Tenant,
  }),
  updateTenant: endpoint({
    method: 'PUT',
    path: '/subscriber/tenant/:name',
    access: 'tenant:update',
    summary: 'Update a tenant',
    tags: ['tenant'],
    params: TenantNameParams,
    body: TenantUpdate,
    response: Tenant,
  }),
  primaryUser: endpoint({
    method: 'GET',
    path: '/tenant/primaryuser',
    access: 'tenant:view',
    summary: "The signed-in tenant's primary user",
    tags: ['tenant'],
    response: PrimaryUser,
  }),
};
