import { z } from 'zod';
import { NonEmpty, Page, PageQuery, Uuid } from './common';
import { endpoint } from './endpoint';
import { TenantParams } from './tenants';

/**
 * The block page (spec §2 `/blockaccess`, `/blockaccess/{type}`, `/blockaccess/{type}/{id}`): where a gateway
 * sends a blocked request, public (no session), in the tenant's branding and the reader's language.
 *
 * How a gateway gets there:
 * - HTTP (squid): a denied request answers `302` to
 *   `<console>/blockaccess/<type>/<ruleId>?tenant=<tenantId>&host=<host>&url=<url>&client=<tunnel address>`
 *   (`deny_info`), the rule known at compile time.
 * - DNS: a block of a policy with `blockPage` answers the gateway's own tunnel address (the zone carries
 *   {@link BLOCK_PAGE_ADDRESS_PLACEHOLDER}, which each gateway replaces with its address); squid on the gateway
 *   answers plain HTTP to that address with `302` to `<console>/blockaccess/site?tenant=…&host=…&client=…`, and
 *   the console finds the deciding rule with the engine.
 */

/** The `{type}` segment: what kind of rule blocked (never the rule's text). Others show the generic page. */
export const BLOCK_PAGE_TYPES = [
  /** Unknown to the gateway (a DNS block reached squid at the gateway's address): the console decides. */
  'site',
  'domain',
  'url',
  'keyword',
  'fileext',
  'category',
  'app',
  'threat',
] as const;
export type BlockPageType = (typeof BLOCK_PAGE_TYPES)[number];

/** The query parameters a gateway's redirect carries. */
export const BLOCK_PAGE_PARAMS = ['tenant', 'host', 'url', 'client'] as const;

/**
 * What a DNS block with the block page answers in the tenant-wide zone: TEST-NET-1 (RFC 5737, never routed), which
 * each gateway replaces with its own tunnel address in its RPZ zone and squid include before loading them.
 */
export const BLOCK_PAGE_ADDRESS_PLACEHOLDER = '192.0.2.1';

/**
 * Where the block page's address stands in the squid artefact (`deny_info 302:<it>/blockaccess/…`): the tenant's
 * artefacts do not depend on the console's public address; each gateway writes the bundle's `blockPageUrl` in
 * its place (a `.invalid` name: if it ever reached a browser, it would resolve nowhere).
 */
export const BLOCK_PAGE_URL_PLACEHOLDER = 'http://block-page.palisade.invalid';

// ---- The public page and "Request access" ------------------------------------------------------------------

/** How many access requests the public form takes (per tunnel address or caller, and per tenant) per window. */
export const ACCESS_REQUEST_LIMITS = { perClient: 5, perTenant: 100, windowMinutes: 60 } as const;

/** How long an approval allows, in minutes: 15 minutes to 7 days. */
export const ACCESS_APPROVAL_MINUTES = { min: 15, max: 10_080 } as const;
/** The durations the console offers (minutes). */
export const ACCESS_APPROVAL_CHOICES = [15, 60, 240, 1440, 10_080] as const;

export const ACCESS_REQUEST_STATUSES = ['pending', 'approved', 'declined', 'expired'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

const loose = (max: number) => z.string().max(max).optional();

/** `/blockaccess/{type}` and `/blockaccess/{type}/{id}`: anything; an unknown type answers the generic page. */
export const BlockPageParams = z.object({ type: z.string().max(40), id: z.string().max(200).optional() });
export const BlockPageRuleParams = z.object({ type: z.string().max(40), id: z.string().min(1).max(200) });

/** What the gateway's redirect carries, taken as given: anything malformed answers the generic page. */
export const BlockPageQuery = z.object({
  tenant: loose(200),
  host: loose(253),
  url: loose(2000),
  client: loose(64),
});

/** A tenant's branding as its users' block page shows it (the partner's colours and logo). */
export const BlockPageBranding = z.object({
  displayName: z.string(),
  primaryColor: z.string().nullable(),
  accentColor: z.string().nullable(),
  logo: z.string().nullable(),
});
export type BlockPageBranding = z.infer<typeof BlockPageBranding>;

/**
 * What the block page shows. `generic` (an unknown type, tenant or rule): nothing but the time and a reference,
 * never another tenant's data. Otherwise the tenant's branding, what was blocked as the gateway said, the kind
 * of rule and its category — never the rule's text or the policy's name.
 */
export const BlockPageInfo = z.object({
  generic: z.boolean(),
  type: z.enum(BLOCK_PAGE_TYPES).nullable(),
  branding: BlockPageBranding.nullable(),
  host: z.string().nullable(),
  url: z.string().nullable(),
  /** The rule that blocked (what "Request access" names), or null. */
  ruleId: z.string().nullable(),
  /** The rule type that blocked (RULE_TYPES, web label `blockPage.kinds.<type>`), or null. */
  ruleKind: z.string().nullable(),
  layer: z.enum(['dns', 'network', 'http', 'qos']).nullable(),
  /** The web category that blocked: its shipped id and name; custom categories are named by id only. */
  category: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  at: z.string(),
  /** A reference the user can quote; a request for access carries it. */
  reference: z.string(),
  /** Whether the page offers "Request access" (a known tenant, rule and host). */
  canRequest: z.boolean(),
});
export type BlockPageInfo = z.infer<typeof BlockPageInfo>;

export const AccessRequestInput = z.object({
  tenant: Uuid,
  host: z
    .string()
    .trim()
    .min(1, { message: 'validation.required' })
    .max(253, { message: 'validation.tooLong' }),
  url: z.string().max(2000, { message: 'validation.tooLong' }).optional(),
  client: z.string().max(64, { message: 'validation.tooLong' }).optional(),
  reference: z.string().max(40, { message: 'validation.tooLong' }).optional(),
  reason: NonEmpty(500),
});
export type AccessRequestInput = z.input<typeof AccessRequestInput>;

export const AccessRequestSent = z.object({ reference: z.string(), status: z.literal('pending') });

/** One access request as administrators see it. */
export const AccessRequest = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.enum(ACCESS_REQUEST_STATUSES),
  type: z.string(),
  ruleKind: z.string().nullable(),
  host: z.string(),
  url: z.string().nullable(),
  client: z.string().nullable(),
  user: z.object({ id: z.string(), name: z.string() }).nullable(),
  deviceId: z.string().nullable(),
  reason: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  /** An approval's end. */
  expiresAt: z.string().nullable(),
  note: z.string().nullable(),
});
export type AccessRequest = z.infer<typeof AccessRequest>;

export const AccessRequestListQuery = PageQuery.extend({
  status: z.enum(ACCESS_REQUEST_STATUSES).optional(),
});
export type AccessRequestListQuery = z.input<typeof AccessRequestListQuery>;

export const AccessRequestCount = z.object({ pending: z.number().int() });

export const AccessApprovalInput = z.object({
  minutes: z
    .number({ message: 'blockPage.validation.minutes' })
    .int({ message: 'blockPage.validation.minutes' })
    .min(ACCESS_APPROVAL_MINUTES.min, { message: 'blockPage.validation.minutes' })
    .max(ACCESS_APPROVAL_MINUTES.max, { message: 'blockPage.validation.minutes' }),
});
export const AccessDeclineInput = z.object({
  note: z.string().trim().max(500, { message: 'validation.tooLong' }).optional(),
});

const AccessRequestParams = TenantParams.extend({ id: Uuid });

export const blockPageEndpoints = {
  blockPage: endpoint({
    method: 'GET',
    path: '/blockaccess/:type',
    access: 'public',
    summary: 'What the block page shows for a block the gateway could not name (or the generic page)',
    tags: ['block-page'],
    params: BlockPageParams,
    query: BlockPageQuery,
    response: BlockPageInfo,
  }),
  blockPageRule: endpoint({
    method: 'GET',
    path: '/blockaccess/:type/:id',
    access: 'public',
    summary: 'What the block page shows for a block by a rule (or the generic page)',
    tags: ['block-page'],
    params: BlockPageRuleParams,
    query: BlockPageQuery,
    response: BlockPageInfo,
  }),
  requestAccess: endpoint({
    method: 'POST',
    path: '/blockaccess/:type/:id/request',
    access: 'public',
    summary: 'Ask the administrators for access to what was blocked (rate-limited)',
    tags: ['block-page'],
    params: BlockPageRuleParams,
    body: AccessRequestInput,
    response: AccessRequestSent,
    status: 201,
  }),
  listAccessRequests: endpoint({
    method: 'GET',
    path: '/policy/access-requests/:tenant',
    access: 'policies:view',
    summary: "The tenant's access requests, newest first, optionally of one status",
    tags: ['block-page'],
    params: TenantParams,
    query: AccessRequestListQuery,
    response: Page(AccessRequest),
  }),
  countAccessRequests: endpoint({
    method: 'GET',
    path: '/policy/access-requests/:tenant/count',
    access: 'policies:view',
    summary: 'How many access requests wait for a decision (the navigation badge)',
    tags: ['block-page'],
    params: TenantParams,
    response: AccessRequestCount,
  }),
  approveAccessRequest: endpoint({
    method: 'POST',
    path: '/policy/access-requests/:tenant/:id/approve',
    access: 'policies:update',
    summary: "Approve: allows the request's host for its user for the given minutes",
    tags: ['block-page'],
    params: AccessRequestParams,
    body: AccessApprovalInput,
    response: AccessRequest,
  }),
  declineAccessRequest: endpoint({
    method: 'POST',
    path: '/policy/access-requests/:tenant/:id/decline',
    access: 'policies:update',
    summary: 'Decline an access request, with an optional note to the user',
    tags: ['block-page'],
    params: AccessRequestParams,
    body: AccessDeclineInput,
    response: AccessRequest,
  }),
};
