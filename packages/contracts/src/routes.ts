import { EMBED_ROUTES, type EmbedRoute } from './embed';

/**
 * The route table: every screen path of spec §2, verbatim, as `:param` patterns. Shared by the web router and
 * the server's 302 rule. `SERVED_ROUTES` lists the paths that have a screen today; every other path (and any
 * unknown path) answers 302 to the global SASE dashboard until its screen is built.
 */
export const SPEC_ROUTES = [
  // Sign-in, sign-up, verify
  '/sign-in',
  '/:partner/sign-in',
  '/ntgr-signout',
  '/sign-up',
  '/email-verification',
  '/sso-verify',
  '/verify/email-verification',
  '/verify/otp-verification',
  '/verify/sso-verification',
  '/verify/:id',
  '/verify/wg/:id',
  '/verify/samlsuccess/:id',
  '/verify/samlfailure/:id',
  // General
  '/admin-console',
  '/live',
  '/network-error',
  '/blockaccess',
  '/blockaccess/:type',
  '/blockaccess/:type/:id',
  '/my-connection',
  '/main/apps',
  '/:id/downloads/:downloadId',
  '/:product/support',
  '/servers-nwmap',
  '/settings',
  '/configurations',
  // Device routes
  '/devices/route/list',
  '/devices/route/:id',
  '/device/route/:id/:type',
  '/devices/route/:id/:deviceid',
  '/devices/routes/',
  // Users
  '/users/list',
  '/users/add',
  '/users/:id',
  '/users/user-policy-view',
  '/users/users-devices',
  '/users/rmm-deployment',
  '/users/agentless',
  '/users/roles',
  '/users/groups',
  '/users/groups/add',
  '/groups/:id',
  '/groups/:id/:type',
  '/users/:id/:type',
  '/device/:id/:type',
  '/policy/policyGroups/:id/:type',
  '/private-5G/user/:id/:type',
  // Private 5G
  '/private-5G/user/list',
  '/private-5G/user/add',
  '/private-5G/user/:id',
  '/private-5G/list',
  '/private-5G/plmn',
  '/private-5G/dashboard',
  // Events
  '/events/admin',
  '/events/connection-status',
  '/events/device-events',
  // Reports
  '/reports/dsb',
  '/reports/analytics',
  '/reports/weekly-sase-insights',
  '/reports/security-compliance',
  // Policy
  '/policy/list',
  '/policy/locations',
  '/policy/apps',
  '/policy/web-categories',
  '/policy/threat-intel',
  '/policy/policyGroups',
  '/policy/policyGroups/:id',
  '/policy/geo-controls',
  '/policy/blocked-apps',
  '/policy/maliciousip',
  // Cybernodes
  '/cybernodes/list',
  '/cybernodes/virtual',
  '/cybernodes/view',
  // Devices
  '/devices/list',
  '/devices/add',
  '/devices/new/add',
  '/devices/:id',
  '/devices/policies/list',
  '/devices/spa/mesh',
  '/devices/spa/service',
  '/devices/internal-devices',
  '/devices/internal-devices/:id',
  '/devices/cgw-categories',
  '/devices/local-geo-controls',
  '/devices/ztna-firewall',
  '/devices/malicious-sites',
  '/devices/local-policies',
  '/devices/site-performance',
  // XDR
  '/XDR/ticket-config',
  '/XDR/dashboard',
  '/XDR/edrdashboard',
  '/XDR/analytics',
  '/XDR/incident-response',
  '/XDR/vulnerability-management',
  '/XDR/new-alerts',
  '/XDR/edit-alert/:id',
  '/XDR/remote-management',
  '/XDR/CASB',
  '/XDR/login',
  // Tenant
  '/tenant/subscription/usage',
  '/tenant/:id/subscriptions/',
  '/tenant/:id/subscriptions/history',
  '/tenant/:id/settings',
  '/tenant/:id',
  // Main dashboards
  '/main-dashboards/SIADashboard',
  '/main-dashboards/SPADashboard',
  '/main-dashboards/:id/SASEDashboard',
  '/main-dashboards/threats',
  '/main-dashboards/analytics',
  // Integrations
  '/integrations/scimSamlSso',
  '/integrations/SIEM',
  // Previews
  '/IAM-preview/identity-management',
  '/IAM-preview/password-manager',
  '/IAM-preview/login',
  '/GRC-preview/grc-management',
  '/GRC-preview/login',
  '/cyber-ai-assistant/cyber-management',
  '/cyber-ai-assistant/login',
] as const;

export type SpecRoute = (typeof SPEC_ROUTES)[number];

/** The partner console's policy templates (issue 13): screens of the console beyond spec §2. */
export const PARTNER_CONSOLE_ROUTES = [
  '/admin-console/templates',
  '/admin-console/templates/:id',
  // A partner's branding and support contact (issue 13).
  '/admin-console/settings',
] as const;
export type PartnerConsoleRoute = (typeof PARTNER_CONSOLE_ROUTES)[number];

/**
 * The page a report recipient's mailed confirmation link opens (issue 31): public, under `/verify` like every
 * mailed link, beyond spec §2.
 */
export const REPORT_ROUTES = ['/verify/report-recipient/:id'] as const;
export type ReportRoute = (typeof REPORT_ROUTES)[number];

/** Where administrators decide the block page's access requests (issue 23): a policy screen beyond spec §2. */
export const ACCESS_REQUEST_ROUTES = ['/policy/access-requests'] as const;
export type AccessRequestRoute = (typeof ACCESS_REQUEST_ROUTES)[number];

/**
 * Screens that exist today. The web router mounts exactly these; the server serves the SPA for exactly these.
 * The spec's screens, and the embedded dashboards (`/embed/…`, spec §2 "Embedded dashboards", whose paths the
 * spec does not show: embed.ts).
 */
export const SERVED_ROUTES = [
  '/sign-in',
  '/:partner/sign-in',
  '/ntgr-signout',
  '/sign-up',
  '/email-verification',
  '/sso-verify',
  '/verify/email-verification',
  '/verify/otp-verification',
  '/verify/:id',
  '/verify/wg/:id',
  ...REPORT_ROUTES,
  '/admin-console',
  ...PARTNER_CONSOLE_ROUTES,
  '/network-error',
  '/blockaccess',
  '/blockaccess/:type',
  '/blockaccess/:type/:id',
  '/settings',
  '/configurations',
  '/users/list',
  '/users/add',
  '/users/:id',
  '/users/:id/:type',
  '/users/roles',
  '/users/user-policy-view',
  '/users/users-devices',
  '/users/rmm-deployment',
  '/users/agentless',
  '/users/groups',
  '/users/groups/add',
  '/groups/:id',
  '/groups/:id/:type',
  '/events/admin',
  '/events/connection-status',
  '/events/device-events',
  '/tenant/subscription/usage',
  '/tenant/:id/subscriptions/',
  '/tenant/:id/subscriptions/history',
  '/tenant/:id/settings',
  '/tenant/:id',
  '/main-dashboards/:id/SASEDashboard',
  '/main-dashboards/SIADashboard',
  '/main-dashboards/SPADashboard',
  '/main-dashboards/threats',
  '/main-dashboards/analytics',
  '/live',
  '/reports/dsb',
  '/reports/analytics',
  '/reports/weekly-sase-insights',
  '/reports/security-compliance',
  '/policy/list',
  '/policy/policyGroups',
  '/policy/policyGroups/:id',
  '/policy/policyGroups/:id/:type',
  '/policy/locations',
  '/policy/apps',
  '/policy/web-categories',
  '/policy/threat-intel',
  '/policy/maliciousip',
  '/policy/geo-controls',
  '/policy/blocked-apps',
  ...ACCESS_REQUEST_ROUTES,
  '/cybernodes/list',
  '/cybernodes/virtual',
  '/cybernodes/view',
  '/servers-nwmap',
  '/devices/list',
  '/devices/add',
  '/devices/new/add',
  '/devices/:id',
  '/devices/internal-devices',
  '/devices/internal-devices/:id',
  '/devices/policies/list',
  '/devices/route/list',
  '/devices/route/:id',
  '/device/route/:id/:type',
  '/devices/route/:id/:deviceid',
  '/devices/routes/',
  '/device/:id/:type',
  '/devices/spa/service',
  '/devices/spa/mesh',
  '/devices/ztna-firewall',
  '/devices/site-performance',
  '/devices/local-policies',
  '/devices/cgw-categories',
  '/devices/local-geo-controls',
  '/devices/malicious-sites',
  ...EMBED_ROUTES,
] as const satisfies readonly (
  | SpecRoute
  | EmbedRoute
  | PartnerConsoleRoute
  | ReportRoute
  | AccessRequestRoute
)[];

export type ServedRoute = (typeof SERVED_ROUTES)[number];

/** The global view of the main dashboard: where `/`, unknown paths and screens not built yet are redirected. */
export const HOME_PATH = '/main-dashboards/global/SASEDashboard';

/** Path fragments that skip the session check (spec §2, routing rules). */
export const PUBLIC_PATH_FRAGMENTS = [
  'downloads',
  'landing',
  'verify',
  'servers-nwmap',
  'blockaccess',
] as const;

/** Paths that never need a session: the sign-in and sign-up flows and the network error page. */
export const PUBLIC_ROUTES: readonly string[] = [
  '/sign-in',
  '/:partner/sign-in',
  '/ntgr-signout',
  '/sign-up',
  '/email-verification',
  '/sso-verify',
  '/network-error',
];

/** Whether a concrete path matches a `:param` pattern (one segment per param, trailing slash ignored). */
export function matchesPattern(pattern: string, path: string): boolean {
  const split = (p: string) => p.split('/').filter(Boolean);
  const want = split(pattern);
  const have = split(path);
  return want.length === have.length && want.every((seg, i) => seg.startsWith(':') || seg === have[i]);
}

const normalised = (path: string) => `/${path.split('/').filter(Boolean).join('/')}`;
/** The spec's screens without parameters that are not built yet (`/XDR/dashboard`). */
const UNBUILT_STATIC = new Set(
  SPEC_ROUTES.filter(
    (route) => !route.includes(':') && !(SERVED_ROUTES as readonly string[]).includes(route),
  ).map(normalised),
);

/**
 * Whether a path is a screen the SPA serves today. A spec screen not built yet is never another screen's
 * parameter: `/verify/sso-verification` is not `/verify/:id`.
 */
export function isServedRoute(path: string): boolean {
  if (UNBUILT_STATIC.has(normalised(path))) return false;
  return SERVED_ROUTES.some((pattern) => matchesPattern(pattern, path));
}

/** Spec §2: paths containing these words skip the session check, as does a session flagged clientAuth. */
export function skipsSessionCheck(path: string, clientAuth = false): boolean {
  if (clientAuth) return true;
  const segments = path.toLowerCase().split('/');
  return PUBLIC_PATH_FRAGMENTS.some((fragment) => segments.some((segment) => segment.includes(fragment)));
}

/**
 * Signed-in screens whose path holds a public fragment (spec §2): the session check lets them through, but their
 * data needs the session, so they render in the app frame and send a visitor without one to sign in themselves.
 */
const SHELL_ROUTES_WITHOUT_SESSION_CHECK: readonly string[] = ['/servers-nwmap'];

/**
 * Whether a route pattern is a public screen, rendered without a session in the sign-in layout (spec §2 routing
 * rules): the web's router, the server's preloads and the accessibility journey all ask this.
 */
export function isPublicRoute(pattern: string): boolean {
  if (SHELL_ROUTES_WITHOUT_SESSION_CHECK.includes(pattern)) return false;
  return PUBLIC_ROUTES.includes(pattern) || skipsSessionCheck(pattern);
}

/** Fill a pattern's params in order: `buildPath('/users/:id', id)`. */
export function buildPath(pattern: string, ...params: string[]): string {
  let i = 0;
  return pattern.replace(/:[A-Za-z]+/g, () => encodeURIComponent(params[i++] ?? ''));
}
