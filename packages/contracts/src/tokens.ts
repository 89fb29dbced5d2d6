import { z } from 'zod';
import { NonEmpty, Page, PageQuery, Uuid } from './common';
import { endpoint } from './endpoint';
import {
  ALL_PERMISSIONS,
  type Permission,
  PermissionSchema,
  ROLE_PERMISSIONS,
  ROLES,
  type Role,
} from './roles';
import { OtpCode } from './session';
import { TenantParams } from './tenants';

/** Every API token secret starts with this, so scanners and the server can tell it from a session id. */
export const API_TOKEN_PREFIX = 'pal_';
/** Length of the random part of a secret (base62). */
export const API_TOKEN_RANDOM_LENGTH = 40;
/** How many characters of the secret are kept in clear and shown in lists (`pal_` and four more). */
export const API_TOKEN_SHOWN_PREFIX_LENGTH = 8;
/** Shape of a secret; anything else in `Authorization: Bearer` is not one of ours. */
export const API_TOKEN_PATTERN = /^pal_[A-Za-z0-9]{40}$/;
export const API_TOKEN_MAX_EXPIRY_DAYS = 365;
/** The expiry offered first; `null` (never) must be chosen on purpose. */
export const API_TOKEN_DEFAULT_EXPIRY_DAYS = 30;

/**
 * Credentials that live longer than this many days (or never expire) ask whoever creates them to prove who they
 * are again — the account's password, or its TOTP code when it has one — so a session left open (or borrowed)
 * cannot mint a lasting credential: API tokens, embed links.
 */
export const REAUTH_AFTER_DAYS = 30;

/** Whether a credential of this lifetime (`null`: never expires) asks for {@link Reauthentication}. */
export function needsReauthentication(expiresInDays: number | null): boolean {
  return expiresInDays === null || expiresInDays > REAUTH_AFTER_DAYS;
}

/** The proof a long-lived credential asks for: the password, or a current TOTP code (either one). */
export const Reauthentication = z.object({
  password: z.string().min(1, { message: 'validation.required' }).max(1024).optional(),
  code: OtpCode.optional(),
});
export type Reauthentication = z.infer<typeof Reauthentication>;

/** A built-in role a token can be scoped to (the end-user role grants nothing; custom roles are the tenant's). */
export type TokenRole = Exclude<Role, 'user' | 'custom'>;
export const TOKEN_ROLES = ROLES.filter((role): role is TokenRole => role !== 'user' && role !== 'custom');

/** What a read-only token keeps of a list of permissions: the `:view` ones. */
export function readOnlyPermissions(permissions: readonly Permission[]): Permission[] {
  return permissions.filter((permission) => permission.endsWith(':view'));
}

/**
 * The permissions a token request asks for: the role's, or the listed ones (deduplicated, in catalogue order),
 * reduced to `:view` when the token is read-only.
 */
export function requestedTokenPermissions(input: {
  role?: TokenRole;
  permissions?: readonly Permission[];
  isReadOnly: boolean;
}): Permission[] {
  const wanted = new Set<Permission>(input.role ? ROLE_PERMISSIONS[input.role] : (input.permissions ?? []));
  const ordered = ALL_PERMISSIONS.filter((permission) => wanted.has(permission));
  return input.isReadOnly ? readOnlyPermissions(ordered) : ordered;
}

/** An API token as its owner sees it; the secret is never part of it. */
export const ApiToken = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the secret, e.g. `pal_Ab3x`, to recognise it. */
  prefix: z.string(),
  permissions: z.array(z.string()),
  isReadOnly: z.boolean(),
  expiresAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type ApiToken = z.infer<typeof ApiToken>;

/** The answer to a creation: the token and its secret, shown this once. */
export const CreatedApiToken = ApiToken.extend({ secret: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

/**
 * A new token: scoped either to a built-in role or to a list of permissions (exactly one of the two),
 * optionally read-only, expiring after 1 to 365 days or never (`null`).
 */
export const ApiTokenInput = z
  .object({
    name: NonEmpty(100),
    role: z.enum(TOKEN_ROLES).optional(),
    permissions: z
      .array(PermissionSchema)
      .max(ALL_PERMISSIONS.length * 2)
      .optional(),
    isReadOnly: z.boolean().default(false),
    expiresInDays: z
      .number({ message: 'validation.required' })
      .int({ message: 'validation.expiryDays' })
      .min(1, { message: 'validation.expiryDays' })
      .max(API_TOKEN_MAX_EXPIRY_DAYS, { message: 'validation.expiryDays' })
      .nullable()
      .default(API_TOKEN_DEFAULT_EXPIRY_DAYS),
    /** Asked for when the token lives longer than {@link REAUTH_AFTER_DAYS} days or never expires. */
    reauth: Reauthentication.optional(),
  })
  .superRefine((value, issues) => {
    if (value.role && value.permissions) {
      issues.addIssue({ code: 'custom', path: ['permissions'], message: 'validation.roleOrPermissions' });
    } else if (!value.role && !value.permissions?.length) {
      issues.addIssue({ code: 'custom', path: ['permissions'], message: 'validation.required' });
    } else if (requestedTokenPermissions(value).length === 0) {
      // Read-only keeps only `:view`; a token that would hold nothing is a mistake.
      issues.addIssue({ code: 'custom', path: ['permissions'], message: 'validation.readOnlyNothing' });
    }
  });
export type ApiTokenInput = z.input<typeof ApiTokenInput>;

export const ApiTokenListQuery = PageQuery.pick({ limit: true, offset: true });
export type ApiTokenListQuery = z.infer<typeof ApiTokenListQuery>;

const TokenParams = z.object({ id: Uuid });

/** A token as the tenant's administrators see it: with the administrator it belongs to. */
export const TenantApiToken = ApiToken.extend({
  owner: z.object({ id: z.string(), username: z.string() }),
});
export type TenantApiToken = z.infer<typeof TenantApiToken>;

/** The tenant's tokens, newest first; `userId` narrows to one administrator's, `active` to usable ones. */
export const TenantApiTokenListQuery = PageQuery.pick({ limit: true, offset: true }).extend({
  userId: Uuid.optional(),
  active: z.enum(['true', 'false']).optional(),
});
export type TenantApiTokenListQuery = z.infer<typeof TenantApiTokenListQuery>;

/** The signed-in administrator's own API tokens (not for end users, and not callable with a token). */
export const tokenEndpoints = {
  listTokens: endpoint({
    method: 'GET',
    path: '/me/tokens',
    access: 'session',
    summary: 'My API tokens, newest first',
    tags: ['me'],
    query: ApiTokenListQuery,
    response: Page(ApiToken),
  }),
  createToken: endpoint({
    method: 'POST',
    path: '/me/tokens',
    access: 'session',
    summary: 'Create an API token (the secret is answered once)',
    tags: ['me'],
    body: ApiTokenInput,
    response: CreatedApiToken,
    status: 201,
  }),
  revokeToken: endpoint({
    method: 'DELETE',
    path: '/me/tokens/:id',
    access: 'session',
    summary: 'Revoke one of my API tokens',
    tags: ['me'],
    params: TokenParams,
    response: ApiToken,
  }),
  /** Any administrator's tokens of a tenant, for whoever manages its administrators (owners, `roles:update`). */
  listTenantTokens: endpoint({
    method: 'GET',
    path: '/tokens/:tenant',
    access: 'roles:update',
    summary: "The tenant's API tokens, of every administrator",
    tags: ['tokens'],
    params: TenantParams,
    query: TenantApiTokenListQuery,
    response: Page(TenantApiToken),
  }),
  revokeTenantToken: endpoint({
    method: 'DELETE',
    path: '/tokens/:tenant/:id',
    access: 'roles:update',
    summary: "Revoke any administrator's API token of the tenant",
    tags: ['tokens'],
    params: TenantParams.extend({ id: Uuid }),
    response: TenantApiToken,
  }),
};
