import { z } from 'zod';
import { Email, NonEmpty, Page, PageQuery, TenantName, Uuid } from './common';
import { endpoint } from './endpoint';
import { TenantKind } from './session';
import { PLAN_SKUS, SubscriptionStatusSchema } from './subscriptions';
import { HexColor, TenantParams } from './tenants';

/**
 * The partner console (`/admin-console`): the tenants a partner manages, or every tenant for the platform.
 * A partner admin works on its own customers; a platform admin on any tenant, and moves them between partners.
 */

/**
 * `active`; `suspended`: its people cannot sign in and its API tokens stop working until it is resumed;
 * `deletion_scheduled`: deleted by its partner or the platform, it works as a suspended tenant until it is restored
 * or purged (after {@link TENANT_DELETION_GRACE_DAYS} days).
 */
export const TENANT_STATUSES = ['active', 'suspended', 'deletion_scheduled'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];
/** The statuses a console sets directly (deletion has its own calls). */
export const SETTABLE_TENANT_STATUSES = ['active', 'suspended'] as const;
export type SettableTenantStatus = (typeof SETTABLE_TENANT_STATUSES)[number];

/** How long a deleted tenant can be restored before it is purged with everything it holds. */
export const TENANT_DELETION_GRACE_DAYS = 30;
export const TENANT_DELETION_GRACE_MS = TENANT_DELETION_GRACE_DAYS * 24 * 60 * 60 * 1000;

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
  /** When a scheduled deletion purges it (null: none scheduled). */
  deletionDueAt: z.string().nullable(),
  /** End users (usertype 0). */
  users: z.number().int(),
  devices: z.number().int(),
  /** Gateways not retired, and those of them silent for three heartbeats. */
  gateways: z.number().int(),
  gatewaysOffline: z.number().int(),
  /** Its plan and subscription status (null: no subscription); in the console's list only. */
  subscription: z
    .object({ plan: z.enum(PLAN_SKUS), status: SubscriptionStatusSchema, trialEndsAt: z.string().nullable() })
    .nullable()
    .optional(),
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

export const ManagedTenantStatusUpdate = z.object({ status: z.enum(SETTABLE_TENANT_STATUSES) });
export type ManagedTenantStatusUpdate = z.infer<typeof ManagedTenantStatusUpdate>;

/** The partner to move a tenant to (platform admins only). */
export const ManagedTenantMove = z.object({ partner: TenantName });
export type ManagedTenantMove = z.infer<typeof ManagedTenantMove>;

export const ManagedTenantParams = TenantParams.extend({ id: Uuid });

// ---- Partner info and settings (spec §7 `partner/info/{id}`, `partner/{name}`) ------------------------------------

/**
 * The partner short name (spec §3): the part of a partner's stored name after its first underscore, or the whole
 * name when it has none (`msp_northwind` → `northwind`).
 */
export function partnerShortname(name: string): string {
  const at = name.indexOf('_');
  return at === -1 ? name : name.slice(at + 1);
}

const optionalText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable());

/** How a partner's customers reach its support; every field is optional. */
export const PartnerSupport = z.object({
  email: optionalText(Email),
  /** Digits, spaces and `+ ( ) - / .`, at least five digits. */
  phone: optionalText(
    z
      .string()
      .trim()
      .max(40, { message: 'validation.tooLong' })
      .refine((v) => /^\+?[0-9 ()./-]*$/.test(v) && (v.match(/[0-9]/g) ?? []).length >= 5, {
        message: 'validation.phone',
      }),
  ),
  /** An https:// or http:// address. */
  url: optionalText(
    z
      .string()
      .trim()
      .max(500, { message: 'validation.tooLong' })
      .pipe(z.url({ protocol: /^https?$/, message: 'validation.url' })),
  ),
  /** Free text: "Mon–Fri 8:00–18:00 CET". */
  hours: optionalText(z.string().trim().max(200, { message: 'validation.tooLong' })),
});
export type PartnerSupportInput = z.input<typeof PartnerSupport>;

/** A support contact as answered (the stored values, or null). */
export const PartnerSupportContact = z.object({
  email: z.string().nullable(),
  phone: z.string().nullable(),
  url: z.string().nullable(),
  hours: z.string().nullable(),
});
export type PartnerSupport = z.infer<typeof PartnerSupportContact>;

/** What a partner's admins set: its display name, colours and support contact (the logo has its own calls). */
export const PartnerSettingsUpdate = z.object({
  displayName: NonEmpty(100),
  primaryColor: HexColor.nullable(),
  accentColor: HexColor.nullable(),
  support: PartnerSupport,
});
export type PartnerSettingsUpdate = z.infer<typeof PartnerSettingsUpdate>;

export const PartnerSettings = z.object({
  name: z.string(),
  displayName: z.string(),
  primaryColor: z.string().nullable(),
  accentColor: z.string().nullable(),
  support: PartnerSupportContact,
  /** The public address of the logo (`/api/partner/{name}/logo?v=…`), or null without one. */
  logo: z.string().nullable(),
});
export type PartnerSettings = z.infer<typeof PartnerSettings>;

/** The partner a tenant's users see: who it is, its branding and how to reach its support. */
export const PartnerInfo = z.object({
  name: z.string(),
  displayName: z.string(),
  /** The short name (spec §3, {@link partnerShortname}). */
  partnername: z.string(),
  primaryColor: z.string().nullable(),
  accentColor: z.string().nullable(),
  logo: z.string().nullable(),
  support: PartnerSupportContact,
});
export type PartnerInfo = z.infer<typeof PartnerInfo>;

/** Logo uploads: PNG, JPEG or WebP (never SVG: it can carry script), at most 256 kB, as the raw request body. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
export const MAX_LOGO_BYTES = 256 * 1024;

export const PartnerInfoParams = z.object({ id: TenantName });

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
  deleteManagedTenant: endpoint({
    method: 'DELETE',
    path: '/partner/:tenant/tenants/:id',
    access: 'tenant:delete',
    summary: `Schedule a customer tenant's deletion: it stops working at once and is purged after ${TENANT_DELETION_GRACE_DAYS} days`,
    tags: ['partners'],
    params: ManagedTenantParams,
    response: ManagedTenant,
  }),
  restoreManagedTenant: endpoint({
    method: 'POST',
    path: '/partner/:tenant/tenants/:id/restore',
    access: 'tenant:delete',
    summary: "Cancel a tenant's scheduled deletion within the grace period",
    tags: ['partners'],
    params: ManagedTenantParams,
    response: ManagedTenant,
  }),
  partnerInfo: endpoint({
    method: 'GET',
    path: '/partner/info/:id',
    access: 'session',
    summary:
      "The partner of a tenant: its names, branding and support contact (the caller's own tenant or one it manages)",
    tags: ['partners'],
    params: PartnerInfoParams,
    response: PartnerInfo,
  }),
  getPartnerSettings: endpoint({
    method: 'GET',
    path: '/partner/:tenant/settings',
    access: 'tenant:view',
    summary: "A partner's display name, colours, logo and support contact",
    tags: ['partners'],
    params: TenantParams,
    response: PartnerSettings,
  }),
  updatePartnerSettings: endpoint({
    method: 'PUT',
    path: '/partner/:tenant/settings',
    access: 'tenant:update',
    summary: "Change a partner's display name, colours and support contact",
    tags: ['partners'],
    params: TenantParams,
    body: PartnerSettingsUpdate,
    response: PartnerSettings,
  }),
  uploadPartnerLogo: endpoint({
    method: 'PUT',
    path: '/partner/:tenant/logo',
    access: 'tenant:update',
    summary:
      "Upload a partner's logo: the raw image as the body (image/png, image/jpeg or image/webp, at most 256 kB)",
    tags: ['partners'],
    params: TenantParams,
    response: PartnerSettings,
  }),
  deletePartnerLogo: endpoint({
    method: 'DELETE',
    path: '/partner/:tenant/logo',
    access: 'tenant:update',
    summary: "Remove a partner's logo",
    tags: ['partners'],
    params: TenantParams,
    response: PartnerSettings,
  }),
  partnerLogo: endpoint({
    method: 'GET',
    path: '/partner/:name/logo',
    access: 'public',
    summary: "A partner's logo image (public: the sign-in page shows it)",
    tags: ['partners'],
    params: z.object({ name: z.string().max(100) }),
    response: z.unknown(),
  }),
};
