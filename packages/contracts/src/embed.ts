import type { TenantKind } from './session';

/**
 * Embedded dashboards (spec §2): links that open one dashboard without the console's frame, for another page to
 * show or a wall screen to keep open. A link is built from the dashboard base host (`DASHBOARD_BASE_URL`, this
 * server by default) and the link's own credential — an embed token (`emb_…`, embed-links.ts), read-only, scoped
 * to its tenant and dashboards, expiring and revocable; never the session of whoever made it:
 * `${base}/embed/<kind>/<arguments>?token=<embed token>`. The page it opens keeps the token for its tab only,
 * removes it from the address at once and never sends it on as a Referer.
 * The spec does not show the paths; these are Palisade's (docs/embedding.md).
 */

/** The kinds of embedded dashboard, by their stable ids (the first segment after `/embed/`). */
export const EMBED_KINDS = [
  'tenant',
  '5g',
  'xdr',
  'spa',
  'weekly-sase',
  'weekly-site-performance',
  'diagnostics',
  'intrusion-detection',
  'agentless',
  'user-tag',
  'global',
  'incident-response',
  'vulnerability-management',
  'ai-search',
] as const;
export type EmbedKind = (typeof EMBED_KINDS)[number];

/** What each kind's path holds after its id, in order. */
export interface EmbedArgs {
  tenant: { tenant: string };
  '5g': { tenant: string };
  /** The XDR dashboard differs by the kind of tenant it is shown for (a partner's, a customer's). */
  xdr: { tenant: string; tenantType: TenantKind };
  spa: { tenant: string };
  'weekly-sase': { tenant: string };
  'weekly-site-performance': { tenant: string };
  diagnostics: { tenant: string };
  'intrusion-detection': { tenant: string };
  agentless: { tenant: string };
  /** The per-user dashboard: the user by id (what the events are filtered by) and by the name it is shown as. */
  'user-tag': { tenant: string; userId: string; userName: string };
  /** The working tenant's live view: the tenant is the session's. */
  global: { [key in never]: string };
  'incident-response': { tenant: string };
  'vulnerability-management': { tenant: string };
  'ai-search': { tenant: string };
}

/** The query parameter that carries the link's embed token. */
export const EMBED_TOKEN_PARAM = 'token';

/**
 * The parameter earlier links carried the creator's session id in. A page opened with it drops it from the
 * address and never takes it as a session (that signed a visitor into someone else's account).
 */
export const EMBED_LEGACY_SESSION_PARAM = 'sid';

/** Where every embedded dashboard's path starts. */
export const EMBED_PATH_PREFIX = '/embed';

/** Each kind's route pattern, its arguments as `:params` in the order of {@link EmbedArgs}. */
export const EMBED_ROUTE_OF = {
  tenant: '/embed/tenant/:tenant',
  '5g': '/embed/5g/:tenant',
  xdr: '/embed/xdr/:tenant/:tenantType',
  spa: '/embed/spa/:tenant',
  'weekly-sase': '/embed/weekly-sase/:tenant',
  'weekly-site-performance': '/embed/weekly-site-performance/:tenant',
  diagnostics: '/embed/diagnostics/:tenant',
  'intrusion-detection': '/embed/intrusion-detection/:tenant',
  agentless: '/embed/agentless/:tenant',
  'user-tag': '/embed/user-tag/:tenant/:userId/:userName',
  global: '/embed/global',
  'incident-response': '/embed/incident-response/:tenant',
  'vulnerability-management': '/embed/vulnerability-management/:tenant',
  'ai-search': '/embed/ai-search/:tenant',
} as const satisfies Record<EmbedKind, `/embed/${string}`>;

/** The route patterns of the embedded dashboards, for the route table (`SERVED_ROUTES`). */
export const EMBED_ROUTES = [
  '/embed/tenant/:tenant',
  '/embed/5g/:tenant',
  '/embed/xdr/:tenant/:tenantType',
  '/embed/spa/:tenant',
  '/embed/weekly-sase/:tenant',
  '/embed/weekly-site-performance/:tenant',
  '/embed/diagnostics/:tenant',
  '/embed/intrusion-detection/:tenant',
  '/embed/agentless/:tenant',
  '/embed/user-tag/:tenant/:userId/:userName',
  '/embed/global',
  '/embed/incident-response/:tenant',
  '/embed/vulnerability-management/:tenant',
  '/embed/ai-search/:tenant',
] as const satisfies readonly (typeof EMBED_ROUTE_OF)[EmbedKind][];
export type EmbedRoute = (typeof EMBED_ROUTES)[number];

/** Whether a route pattern or a concrete path is an embedded dashboard's (rendered without the console's frame). */
export function isEmbedRoute(path: string): boolean {
  return path === EMBED_PATH_PREFIX || path.startsWith(`${EMBED_PATH_PREFIX}/`);
}

/** The arguments a kind's link needs: none for the global view, else its {@link EmbedArgs}. */
export type EmbedLinkArgs<K extends EmbedKind> = keyof EmbedArgs[K] extends never ? [] : [args: EmbedArgs[K]];

/** One path segment, percent-encoded; empty and dot segments (which a URL would drop or climb) are refused. */
function segment(name: string, value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new Error(`Embedded dashboard link: "${name}" must not be empty, "." or ".."`);
  }
  return encodeURIComponent(value);
}

/** The path of a kind's dashboard (`/embed/xdr/acme/customer`), every argument percent-encoded. */
export function embedPath<K extends EmbedKind>(kind: K, ...rest: EmbedLinkArgs<K>): string {
  const args = (rest[0] ?? {}) as Record<string, string>;
  return EMBED_ROUTE_OF[kind].replace(/:([A-Za-z]+)/g, (_match, name: string) =>
    segment(name, args[name] ?? ''),
  );
}

/**
 * The link of an embedded dashboard: `base` (the dashboard base host, which may carry a path prefix; a trailing
 * slash is dropped) + the kind's path + `?token=` the link's embed token.
 */
export function embedLink<K extends EmbedKind>(
  base: string,
  token: string,
  kind: K,
  ...args: EmbedLinkArgs<K>
): string {
  const root = base.replace(/\/+$/, '');
  return `${root}${embedPath(kind, ...args)}?${EMBED_TOKEN_PARAM}=${encodeURIComponent(token)}`;
}
