import { z } from 'zod';
import { NonEmpty, Page, PageQuery, Uuid } from './common';
import { PALETTES, THEMES } from './constants';
import { dashboardEndpoints } from './dashboard';
import { EMBED_KINDS, type EmbedKind } from './embed';
import { type Endpoint, endpoint } from './endpoint';
import { FEATURE_FLAGS } from './features';
import { reportEndpoints } from './reports';
import { ALL_PERMISSIONS, type Permission, PermissionSchema } from './roles';
import { TenantKind } from './session';
import { sitePerformanceEndpoints } from './site-performance';
import { telemetryEndpoints } from './telemetry';
import { TenantParams } from './tenants';
import { Reauthentication } from './tokens';

/**
 * Embed links: the credential an embedded dashboard's link carries (spec §2, docs/embedding.md). Not a session:
 * read-only, bound at creation to one tenant and the dashboards it names (and, for the per-user dashboard, the
 * user), expiring, revocable, listed on the settings page. It can call only the read routes of its dashboards
 * ({@link EMBED_READS}); everything else answers 401 or 403 to it, so it can neither write nor mint tokens or
 * sessions. It acts with its creator's rights at each call: a creator suspended, removed or demoted takes it down.
 */

/** Every embed token starts with this (and the server's log redaction knows it). */
export const EMBED_TOKEN_PREFIX = 'emb_';
/** `emb_` and 43 base64url characters (32 random bytes). */
export const EMBED_TOKEN_PATTERN = /^emb_[A-Za-z0-9_-]{43}$/;
/** How many characters of the token are kept in clear and listed, to recognise it (`emb_` and four more). */
export const EMBED_TOKEN_SHOWN_PREFIX_LENGTH = 8;
/** The lifetimes a link is made with; past 30 days its creator confirms who they are (tokens.ts). */
export const EMBED_LINK_EXPIRY_DAYS = [1, 7, 30, 90, 365] as const;
export type EmbedLinkExpiryDays = (typeof EMBED_LINK_EXPIRY_DAYS)[number];
/** The lifetime offered first. */
export const EMBED_LINK_DEFAULT_EXPIRY_DAYS: EmbedLinkExpiryDays = 30;

/** The raw query of a request, as a read's condition sees it (before validation: strings). */
export type RawQuery = Record<string, unknown>;

/**
 * One route an embedded dashboard reads, and what its query must hold when the dashboard shows only part of what
 * the route answers (the per-user dashboard reads the decisions of its user only).
 */
export interface EmbedRead {
  endpoint: Endpoint;
  where?: (query: RawQuery, link: { userId: string | null }) => boolean;
}

const overview: EmbedRead[] = [
  { endpoint: telemetryEndpoints.telemetryOverview },
  { endpoint: telemetryEndpoints.telemetryTop },
];
const compliance: EmbedRead = { endpoint: reportEndpoints.getComplianceReport };

/**
 * The read routes of each kind's view, and nothing more: what an embed link may call. Recorded from the views
 * themselves (each reuses a console screen), checked by the server on every call of an embed token.
 */
export const EMBED_READS: Record<EmbedKind, readonly EmbedRead[]> = {
  tenant: [{ endpoint: dashboardEndpoints.summary }, ...overview],
  '5g': overview,
  xdr: [compliance, ...overview],
  spa: [{ endpoint: telemetryEndpoints.privateAccessSummary }],
  'weekly-sase': [{ endpoint: reportEndpoints.getWeeklyInsightsReport }],
  'weekly-site-performance': [{ endpoint: sitePerformanceEndpoints.getSitePerformance }],
  diagnostics: overview,
  'intrusion-detection': overview,
  agentless: overview,
  'user-tag': [
    { endpoint: telemetryEndpoints.listDecisionEvents, where: (query, link) => query.userId === link.userId },
  ],
  global: [{ endpoint: telemetryEndpoints.liveTelemetry }],
  'incident-response': [
    { endpoint: telemetryEndpoints.listDecisionEvents, where: (query) => query.decision === 'block' },
  ],
  'vulnerability-management': [compliance],
  'ai-search': [
    {
      endpoint: telemetryEndpoints.listDecisionEvents,
      where: (query) => typeof query.destination === 'string' && query.destination.trim() !== '',
    },
  ],
};

/** The permissions a link of these kinds reads with (each read route's), in catalogue order. */
export function embedPermissions(kinds: readonly EmbedKind[]): Permission[] {
  const wanted = new Set<string>(
    kinds.flatMap((kind) => EMBED_READS[kind].map((read) => read.endpoint.access)),
  );
  return ALL_PERMISSIONS.filter((permission) => wanted.has(permission));
}

/**
 * Whether a link of `kinds` may make a call: `method` and `path` (the route pattern under the API base, as the
 * descriptors write it: `/telemetry/:tenant/top`) name one of its reads, and the query meets that read's condition.
 */
export function embedMayCall(
  link: { kinds: readonly EmbedKind[]; userId: string | null },
  method: string,
  path: string,
  query: RawQuery,
): boolean {
  return link.kinds.some((kind) =>
    EMBED_READS[kind].some(
      (read) =>
        read.endpoint.method === method &&
        read.endpoint.path === path &&
        (read.where ? read.where(query, link) : true),
    ),
  );
}

/** An embed link as the settings page lists it; the token itself is never part of it. */
export const EmbedLink = z.object({
  id: z.string(),
  name: z.string(),
  /** The tenant whose dashboards it shows. */
  tenant: z.string(),
  kinds: z.array(z.enum(EMBED_KINDS)),
  /** The user of a per-user dashboard (`user-tag`), else null. */
  userId: z.string().nullable(),
  /** The first characters of the token (`emb_Ab3x`), to recognise a link. */
  prefix: z.string(),
  createdBy: z.object({ id: z.string(), username: z.string() }),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});
export type EmbedLink = z.infer<typeof EmbedLink>;

/** The answer to a creation: the link and its token, shown this once. */
export const CreatedEmbedLink = EmbedLink.extend({ token: z.string() });
export type CreatedEmbedLink = z.infer<typeof CreatedEmbedLink>;

/**
 * A new embed link: a name, the dashboards it opens (the per-user one with its user), how long it lives, and —
 * past 30 days — the creator's password or TOTP code again.
 */
export const EmbedLinkInput = z
  .object({
    name: NonEmpty(100),
    kinds: z
      .array(z.enum(EMBED_KINDS, { message: 'validation.embedKind' }))
      .min(1, { message: 'validation.embedKinds' })
      .max(EMBED_KINDS.length),
    userId: Uuid.nullable().default(null),
    expiresInDays: z
      .number({ message: 'validation.required' })
      .refine((days) => (EMBED_LINK_EXPIRY_DAYS as readonly number[]).includes(days), {
        message: 'validation.embedExpiry',
      })
      .default(EMBED_LINK_DEFAULT_EXPIRY_DAYS),
    reauth: Reauthentication.optional(),
  })
  .superRefine((value, issues) => {
    if (new Set(value.kinds).size !== value.kinds.length) {
      issues.addIssue({ code: 'custom', path: ['kinds'], message: 'validation.duplicate' });
    }
    const isPerUser = value.kinds.includes('user-tag');
    if (isPerUser && !value.userId) {
      issues.addIssue({ code: 'custom', path: ['userId'], message: 'validation.embedUser' });
    } else if (!isPerUser && value.userId) {
      issues.addIssue({ code: 'custom', path: ['userId'], message: 'validation.embedNoUser' });
    }
  });
export type EmbedLinkInput = z.input<typeof EmbedLinkInput>;

/** The tenant's embed links, newest first; `active` narrows to usable (or ended) ones. */
export const EmbedLinkListQuery = PageQuery.pick({ limit: true, offset: true }).extend({
  active: z.enum(['true', 'false']).optional(),
});
export type EmbedLinkListQuery = z.infer<typeof EmbedLinkListQuery>;

/** What an embedded view learns of the link it was opened with: enough to show its dashboards, nothing more. */
export const EmbedSession = z.object({
  linkId: z.string(),
  name: z.string(),
  tenant: z.string(),
  tenantDisplayName: z.string(),
  tenantKind: TenantKind,
  kinds: z.array(z.enum(EMBED_KINDS)),
  userId: z.string().nullable(),
  /** What the link reads with now: its dashboards' permissions, never more than its creator holds. */
  permissions: z.array(PermissionSchema),
  features: z.array(z.enum(FEATURE_FLAGS)),
  tenantTheme: z.enum(THEMES),
  tenantPalette: z.enum(PALETTES),
  expiresAt: z.iso.datetime(),
});
export type EmbedSession = z.infer<typeof EmbedSession>;

const EmbedLinkParams = TenantParams.extend({ id: Uuid });

export const embedLinkEndpoints = {
  listEmbedLinks: endpoint({
    method: 'GET',
    path: '/embed-links/:tenant',
    access: 'dashboard:view',
    summary: "The tenant's embed links (embedded-dashboard credentials), newest first",
    tags: ['embed-links'],
    params: TenantParams,
    query: EmbedLinkListQuery,
    response: Page(EmbedLink),
  }),
  createEmbedLink: endpoint({
    method: 'POST',
    path: '/embed-links/:tenant',
    access: 'dashboard:view',
    summary:
      'Create an embed link for dashboards of the tenant; its token is answered this once. A signed-in person only',
    tags: ['embed-links'],
    params: TenantParams,
    body: EmbedLinkInput,
    response: CreatedEmbedLink,
    status: 201,
  }),
  revokeEmbedLink: endpoint({
    method: 'DELETE',
    path: '/embed-links/:tenant/:id',
    access: 'dashboard:view',
    summary: 'Revoke an embed link: its own creator, or whoever manages administrators (roles:update)',
    tags: ['embed-links'],
    params: EmbedLinkParams,
    response: EmbedLink,
  }),
  embedSession: endpoint({
    method: 'GET',
    path: '/embed/session',
    access: 'embed',
    summary: 'What the embed link of `Authorization: Bearer emb_…` opens: its tenant, dashboards and look',
    tags: ['embed-links'],
    response: EmbedSession,
  }),
} as const;
