import { z } from 'zod';
import { IdList, NonEmpty, Uuid } from './common';
import { MAX_APP_ID_IP_COUNT, MAX_CUSTOM_DOMAINS_PER_APP, MAX_PORTS_LOCATIONS } from './constants';
import { endpoint } from './endpoint';
import { isIpOrCidr } from './ip';
import { TenantParams } from './tenants';
import { isTxtFileName, isValidDomainOrUrl } from './validators';

/**
 * The objects policy rules refer to: locations, applications, web categories, threat-intel feeds, geo
 * controls and blocked apps. Shipped data (app catalog, category database, built-in feeds, GeoIP) is
 * read-only; tenants add their own next to it. Deleting an object that rules use removes it from those rules
 * (a rule left with nothing to match is removed too) — the screens show the cascade from where-used first.
 */

const OBJECT_NAME_MAX = 100;
const DESCRIPTION_MAX = 500;

/**
 * A network entry (apps, locations, feeds): an IPv4 address or an IPv4 CIDR block. IPv4 only by design: the
 * policy engine decides IPv4 addresses (an IPv6 entry would match nothing).
 */
const isNetworkEntry = (value: string) => isIpOrCidr(value, 4);
/** Lower-cases and strips scheme and trailing slash, so `https://Example.com/` is stored as `example.com`. */
export function normaliseDomain(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/$/, '');
}

/** Report duplicates inside one list field as `{path: field.i, message: validation.duplicate}`. */
const noDuplicates = (list: string[], ctx: z.RefinementCtx, norm: (s: string) => string = (s) => s) => {
  const seen = new Map<string, number>();
  list.forEach((item, i) => {
    const key = norm(item);
    if (seen.has(key)) ctx.addIssue({ code: 'custom', message: 'validation.duplicate', path: [i] });
    else seen.set(key, i);
  });
};

const NetworkEntry = z.string().trim().refine(isNetworkEntry, { message: 'validation.ipOrCidr' });
const DomainEntry = z.string().trim().refine(isValidDomainOrUrl, { message: 'validation.domain' });

// --- Locations ------------------------------------------------------------------------------------------

/** A named place: where requests come from, by CIDR or public IP (at most 16 entries, spec §9). */
export const Location = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  networks: z.array(z.string()),
  usedBy: z.number().int(),
  updatedAt: z.string(),
});
export type Location = z.infer<typeof Location>;

export const LocationInput = z.object({
  name: NonEmpty(OBJECT_NAME_MAX),
  description: z.string().trim().max(DESCRIPTION_MAX, { message: 'validation.tooLong' }).default(''),
  networks: z
    .array(NetworkEntry)
    .min(1, { message: 'validation.required' })
    .max(MAX_PORTS_LOCATIONS, { message: 'validation.maxLocations' })
    .superRefine((list, ctx) => noDuplicates(list, ctx)),
});
export type LocationInput = z.input<typeof LocationInput>;

// --- Applications ---------------------------------------------------------------------------------------

/** An application: shipped in the catalog (`custom` false) or the tenant's own. `appid` is what rules use. */
export const App = z.object({
  appid: z.string(),
  appname: z.string(),
  category: z.string(),
  domains: z.array(z.string()),
  ips: z.array(z.string()),
  custom: z.boolean(),
  blocked: z.boolean(),
  usedBy: z.number().int(),
});
export type App = z.infer<typeof App>;

export const AppInput = z.object({
  appname: NonEmpty(OBJECT_NAME_MAX),
  category: z.string().trim().max(OBJECT_NAME_MAX).default('custom'),
  domains: z
    .array(DomainEntry)
    .max(MAX_CUSTOM_DOMAINS_PER_APP, { message: 'validation.maxDomains' })
    .default([])
    .superRefine((list, ctx) => noDuplicates(list, ctx, normaliseDomain)),
  ips: z
    .array(NetworkEntry)
    .max(MAX_APP_ID_IP_COUNT, { message: 'validation.maxAppIps' })
    .default([])
    .superRefine((list, ctx) => noDuplicates(list, ctx)),
});
export type AppInput = z.input<typeof AppInput>;

/** `letter` narrows to apps whose name starts with it (`#` = not a letter), for the alphabetical look-up. */
export const AppListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  letter: z
    .string()
    .regex(/^[A-Z#]$/)
    .optional(),
  custom: z.enum(['true', 'false']).optional(),
});

// --- Web categories -------------------------------------------------------------------------------------

export const CATEGORY_ACTIONS = ['none', 'allow', 'block'] as const;
export type CategoryAction = (typeof CATEGORY_ACTIONS)[number];

/**
 * A web category: shipped (content or security class) or custom. `action` is the tenant's per-category
 * setting: `block`/`allow` become system rules evaluated after the tenant's own DNS rules (security
 * categories before them), `none` leaves the category to the policies.
 */
export const WebCategory = z.object({
  id: z.string(),
  name: z.string(),
  class: z.enum(['content', 'security', 'custom']),
  description: z.string(),
  domainCount: z.number().int(),
  /** The first domains, as examples; custom categories list all of theirs. */
  domains: z.array(z.string()),
  action: z.enum(CATEGORY_ACTIONS),
  usedBy: z.number().int(),
});
export type WebCategory = z.infer<typeof WebCategory>;

export const MAX_CATEGORY_DOMAINS = 5000;
export const CategoryInput = z.object({
  name: NonEmpty(OBJECT_NAME_MAX),
  description: z.string().trim().max(DESCRIPTION_MAX, { message: 'validation.tooLong' }).default(''),
  domains: z
    .array(DomainEntry)
    .min(1, { message: 'validation.required' })
    .max(MAX_CATEGORY_DOMAINS, { message: 'validation.maxCategoryDomains' })
    .superRefine((list, ctx) => noDuplicates(list, ctx, normaliseDomain)),
});
export type CategoryInput = z.input<typeof CategoryInput>;

export const CategoryLookup = z.object({
  domain: z.string(),
  categories: z.array(z.object({ id: z.string(), name: z.string(), matched: z.string() })),
  apps: z.array(z.object({ appid: z.string(), appname: z.string() })),
});
export type CategoryLookup = z.infer<typeof CategoryLookup>;

// --- Threat intelligence feeds --------------------------------------------------------------------------

export const FEED_KINDS = ['builtin', 'upload', 'url'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

/**
 * A feed of malicious IPs, CIDRs and domains. Enabled feeds become system block rules evaluated before every
 * other rule of their layer. URL feeds refresh on their schedule; the last error is kept and shown.
 */
export const Feed = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(FEED_KINDS),
  url: z.string().nullable(),
  fileName: z.string().nullable(),
  refreshMinutes: z.number().int().nullable(),
  enabled: z.boolean(),
  ipCount: z.number().int(),
  domainCount: z.number().int(),
  lastRefreshedAt: z.string().nullable(),
  lastError: z.string().nullable(),
  usedBy: z.number().int(),
});
export type Feed = z.infer<typeof Feed>;

export const FEED_REFRESH_MINUTES = [15, 60, 360, 1440] as const;
export const MAX_FEED_BYTES = 5 * 1024 * 1024;

export const UrlFeedInput = z.object({
  name: NonEmpty(OBJECT_NAME_MAX),
  url: z
    .string()
    .trim()
    .url({ message: 'validation.url' })
    .refine((u) => /^https?:\/\//i.test(u), { message: 'validation.url' }),
  refreshMinutes: z.union(FEED_REFRESH_MINUTES.map((m) => z.literal(m))).default(1440),
  enabled: z.boolean().default(true),
});
export type UrlFeedInput = z.input<typeof UrlFeedInput>;

/** An uploaded `.txt` feed (spec §5): one IP, CIDR or domain per line; `#` starts a comment. */
export const UploadFeedInput = z.object({
  name: NonEmpty(OBJECT_NAME_MAX),
  fileName: z.string().trim().refine(isTxtFileName, { message: 'validation.txtFile' }),
  content: z.string().max(MAX_FEED_BYTES, { message: 'validation.fileTooLarge' }),
  enabled: z.boolean().default(true),
});
export type UploadFeedInput = z.input<typeof UploadFeedInput>;

export const FeedUpdate = z.object({
  name: NonEmpty(OBJECT_NAME_MAX).optional(),
  enabled: z.boolean().optional(),
  refreshMinutes: z.union(FEED_REFRESH_MINUTES.map((m) => z.literal(m))).optional(),
});

/** A line of a feed that could not be read, reported by line number. */
export const FeedLineError = z.object({ line: z.number().int(), value: z.string(), message: z.string() });
export type FeedLineError = z.infer<typeof FeedLineError>;

/**
 * Parse a feed's text: one entry per line, blank lines and `#` comments skipped, hosts-file lines
 * (`0.0.0.0 bad.example`) reduced to the domain. Shared by the upload form (preview) and the server.
 */
export function parseFeedText(text: string): { ips: string[]; domains: string[]; errors: FeedLineError[] } {
  const ips = new Set<string>();
  const domains = new Set<string>();
  const errors: FeedLineError[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    let line = raw.replace(/#.*$/, '').trim();
    if (!line) return;
    const hosts = /^(?:0\.0\.0\.0|127\.0\.0\.1)\s+(\S+)$/.exec(line);
    if (hosts) line = hosts[1];
    if (isNetworkEntry(line)) ips.add(line);
    else if (isValidDomainOrUrl(line)) domains.add(normaliseDomain(line));
    else if (errors.length < 100)
      errors.push({ line: i + 1, value: line.slice(0, 200), message: 'validation.feedLine' });
  });
  return { ips: [...ips], domains: [...domains], errors };
}

/**
 * One entry of `/policy/maliciousip`: a malicious IP or CIDR with every source that lists it. An entry
 * listed by two sources is a duplicate (spec §5: reported with the ip and both sources).
 */
export const MaliciousIp = z.object({
  ip: z.string(),
  sources: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type MaliciousIp = z.infer<typeof MaliciousIp>;
export const MaliciousIpQuery = z.object({
  q: z.string().trim().max(100).optional(),
  duplicatesOnly: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

// --- Geo controls and blocked apps ----------------------------------------------------------------------

/** ISO 3166-1 alpha-2 code, upper case. */
export const CountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { message: 'validation.country' });

/** Countries the tenant blocks (destination and source), as system GEO rules before the default geo rule. */
export const GeoControls = z.object({
  blocked: z.array(z.string()),
  /** Every country the shipped GeoIP database knows, with its name in English. */
  countries: z.array(z.object({ code: z.string(), name: z.string() })),
  database: z.object({ name: z.string(), builtAt: z.string().nullable() }),
});
export type GeoControls = z.infer<typeof GeoControls>;
export const GeoControlsInput = z.object({
  blocked: z
    .array(CountryCode)
    .max(300)
    .superRefine((list, ctx) => noDuplicates(list, ctx)),
});
export const GeoLookup = z.object({ ip: z.string(), country: z.string().nullable() });

export const BlockedAppsInput = z.object({ appids: z.array(z.string().min(1).max(100)).max(1000) });

const ObjectParams = TenantParams.extend({ id: Uuid });

export const policyObjectEndpoints = {
  listLocations: endpoint({
    method: 'GET',
    path: '/policy/locations/:tenant',
    access: 'policies:view',
    summary: 'Named locations with how many rules use each',
    tags: ['policy objects'],
    params: TenantParams,
    response: z.array(Location),
  }),
  createLocation: endpoint({
    method: 'POST',
    path: '/policy/locations/:tenant',
    access: 'policies:create',
    summary: 'Create a location',
    tags: ['policy objects'],
    params: TenantParams,
    body: LocationInput,
    response: Location,
    status: 201,
  }),
  updateLocation: endpoint({
    method: 'PUT',
    path: '/policy/locations/:tenant/:id',
    access: 'policies:update',
    summary: 'Replace a location',
    tags: ['policy objects'],
    params: ObjectParams,
    body: LocationInput,
    response: Location,
  }),
  deleteLocations: endpoint({
    method: 'DELETE',
    path: '/policy/locations/:tenant',
    access: 'policies:delete',
    summary: 'Delete locations; rules that used them lose the condition',
    tags: ['policy objects'],
    params: TenantParams,
    body: IdList,
    response: z.object({ deleted: z.number().int() }),
  }),
  listApps: endpoint({
    method: 'GET',
    path: '/policy/apps/:tenant',
    access: 'policies:view',
    summary: 'The application catalog and custom apps, alphabetical',
    tags: ['policy objects'],
    params: TenantParams,
    query: AppListQuery,
    response: z.array(App),
  }),
  createApp: endpoint({
    method: 'POST',
    path: '/policy/apps/:tenant',
    access: 'policies:create',
    summary: 'Create a custom app (up to 64 domains and 8 IPs)',
    tags: ['policy objects'],
    params: TenantParams,
    body: AppInput,
    response: App,
    status: 201,
  }),
  updateApp: endpoint({
    method: 'PUT',
    path: '/policy/apps/:tenant/:appid',
    access: 'policies:update',
    summary: 'Replace a custom app',
    tags: ['policy objects'],
    params: TenantParams.extend({ appid: z.string().min(1).max(100) }),
    body: AppInput,
    response: App,
  }),
  deleteApps: endpoint({
    method: 'DELETE',
    path: '/policy/apps/:tenant',
    access: 'policies:delete',
    summary: 'Delete custom apps; rules lose them',
    tags: ['policy objects'],
    params: TenantParams,
    body: z.object({ appids: z.array(z.string().min(1).max(100)).min(1).max(1000) }),
    response: z.object({ deleted: z.number().int() }),
  }),
  listCategories: endpoint({
    method: 'GET',
    path: '/policy/categories/:tenant',
    access: 'policies:view',
    summary: 'Shipped and custom web categories with the tenant action of each',
    tags: ['policy objects'],
    params: TenantParams,
    response: z.array(WebCategory),
  }),
  setCategoryAction: endpoint({
    method: 'PUT',
    path: '/policy/categories/:tenant/:id/action',
    access: 'policies:update',
    feature: 'webFilter',
    summary: 'Allow, block or leave a category to the policies; refused when a policy test fails',
    tags: ['policy objects'],
    params: TenantParams.extend({ id: z.string().min(1).max(100) }),
    body: z.object({ action: z.enum(CATEGORY_ACTIONS) }),
    response: WebCategory,
  }),
  createCategory: endpoint({
    method: 'POST',
    path: '/policy/categories/:tenant',
    access: 'policies:create',
    feature: 'webFilter',
    summary: 'Create a custom category from domains',
    tags: ['policy objects'],
    params: TenantParams,
    body: CategoryInput,
    response: WebCategory,
    status: 201,
  }),
  updateCategory: endpoint({
    method: 'PUT',
    path: '/policy/categories/:tenant/:id',
    access: 'policies:update',
    feature: 'webFilter',
    summary: 'Replace a custom category',
    tags: ['policy objects'],
    params: ObjectParams,
    body: CategoryInput,
    response: WebCategory,
  }),
  deleteCategories: endpoint({
    method: 'DELETE',
    path: '/policy/categories/:tenant',
    access: 'policies:delete',
    feature: 'webFilter',
    summary: 'Delete custom categories; rules lose them',
    tags: ['policy objects'],
    params: TenantParams,
    body: IdList,
    response: z.object({ deleted: z.number().int() }),
  }),
  lookupDomain: endpoint({
    method: 'GET',
    path: '/policy/categories/:tenant/lookup',
    access: 'policies:view',
    summary: 'Which categories and apps a domain belongs to',
    tags: ['policy objects'],
    params: TenantParams,
    query: z.object({ domain: DomainEntry }),
    response: CategoryLookup,
  }),
  listFeeds: endpoint({
    method: 'GET',
    path: '/policy/feeds/:tenant',
    access: 'policies:view',
    summary: 'Threat-intel feeds: built-in, uploaded and URL feeds',
    tags: ['policy objects'],
    params: TenantParams,
    response: z.array(Feed),
  }),
  createUrlFeed: endpoint({
    method: 'POST',
    path: '/policy/feeds/:tenant/url',
    access: 'policies:create',
    summary: 'Add a URL feed; it is fetched now and then on its schedule',
    tags: ['policy objects'],
    params: TenantParams,
    body: UrlFeedInput,
    response: Feed,
    status: 201,
  }),
  uploadFeed: endpoint({
    method: 'POST',
    path: '/policy/feeds/:tenant/upload',
    access: 'policies:create',
    summary: 'Upload a .txt feed; unreadable lines are reported by line and nothing is saved',
    tags: ['policy objects'],
    params: TenantParams,
    body: UploadFeedInput,
    response: Feed,
    status: 201,
  }),
  updateFeed: endpoint({
    method: 'PUT',
    path: '/policy/feeds/:tenant/:id',
    access: 'policies:update',
    summary: 'Rename, enable or disable a feed, or change its schedule; refused when a policy test fails',
    tags: ['policy objects'],
    params: TenantParams.extend({ id: z.string().min(1).max(100) }),
    body: FeedUpdate,
    response: Feed,
  }),
  refreshFeed: endpoint({
    method: 'POST',
    path: '/policy/feeds/:tenant/:id/refresh',
    access: 'policies:update',
    summary: 'Fetch a URL feed now',
    tags: ['policy objects'],
    params: ObjectParams,
    response: Feed,
  }),
  deleteFeeds: endpoint({
    method: 'DELETE',
    path: '/policy/feeds/:tenant',
    access: 'policies:delete',
    summary: 'Delete uploaded and URL feeds; rules lose them (built-in feeds are refused with 400)',
    tags: ['policy objects'],
    params: TenantParams,
    // Feed ids, not only uuids: built-in feeds have slug ids, and naming one must say why it cannot go.
    body: z.object({
      ids: z.array(z.string().trim().min(1).max(100)).min(1, { message: 'validation.required' }).max(1000),
    }),
    response: z.object({ deleted: z.number().int() }),
  }),
  listMaliciousIps: endpoint({
    method: 'GET',
    path: '/policy/maliciousip/:tenant',
    access: 'policies:view',
    summary: 'Malicious IPs and CIDRs of every enabled feed, with their sources; duplicates flagged',
    tags: ['policy objects'],
    params: TenantParams,
    query: MaliciousIpQuery,
    response: z.object({
      items: z.array(MaliciousIp),
      total: z.number().int(),
      duplicates: z.number().int(),
    }),
  }),
  getGeoControls: endpoint({
    method: 'GET',
    path: '/policy/geo/:tenant',
    access: 'policies:view',
    summary: 'Blocked countries and the country list of the shipped GeoIP database',
    tags: ['policy objects'],
    params: TenantParams,
    response: GeoControls,
  }),
  setGeoControls: endpoint({
    method: 'PUT',
    path: '/policy/geo/:tenant',
    access: 'policies:update',
    feature: 'geoOutwards',
    summary: 'Set the blocked countries; refused when a policy test fails',
    tags: ['policy objects'],
    params: TenantParams,
    body: GeoControlsInput,
    response: GeoControls,
  }),
  lookupGeo: endpoint({
    method: 'GET',
    path: '/policy/geo/:tenant/lookup',
    access: 'policies:view',
    summary: 'The country of an IP address in the shipped GeoIP database',
    tags: ['policy objects'],
    params: TenantParams,
    query: z.object({ ip: z.string().trim().min(1).max(45) }),
    response: GeoLookup,
  }),
  getBlockedApps: endpoint({
    method: 'GET',
    path: '/policy/blocked-apps/:tenant',
    access: 'policies:view',
    summary: 'The apps blocked for the whole tenant',
    tags: ['policy objects'],
    params: TenantParams,
    response: z.array(App),
  }),
  setBlockedApps: endpoint({
    method: 'PUT',
    path: '/policy/blocked-apps/:tenant',
    access: 'policies:update',
    summary: 'Set the apps blocked for the whole tenant; refused when a policy test fails',
    tags: ['policy objects'],
    params: TenantParams,
    body: BlockedAppsInput,
    response: z.array(App),
  }),
};
