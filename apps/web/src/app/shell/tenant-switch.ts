import { buildPath, matchesPattern, SERVED_ROUTES } from '@palisade/contracts';

/** Screens whose path names the tenant: switching moves to the same screen of the new tenant. */
const TENANT_SCREENS = [
  '/tenant/:id/subscriptions/',
  '/tenant/:id/subscriptions/history',
  '/tenant/:id/settings',
  '/tenant/:id',
  '/main-dashboards/:id/SASEDashboard',
] as const;

/** The dashboard's id for "the working tenant", which follows the switch by itself. */
const GLOBAL_DASHBOARD = '/main-dashboards/global/SASEDashboard';

/**
 * Screens of one object of the tenant (its id in the path) and the list of their area: the object is not the
 * new tenant's, so switching moves to that list instead of a "not found".
 */
const OBJECT_SCREENS: Readonly<Record<string, string>> = {
  '/users/:id': '/users/list',
  '/users/:id/:type': '/users/list',
  '/groups/:id': '/users/groups',
  '/groups/:id/:type': '/users/groups',
  '/policy/policyGroups/:id': '/policy/policyGroups',
  '/policy/policyGroups/:id/:type': '/policy/policyGroups',
  '/devices/:id': '/devices/list',
  '/device/:id/:type': '/devices/list',
  '/devices/internal-devices/:id': '/devices/internal-devices',
  '/devices/route/:id': '/devices/route/list',
  '/device/route/:id/:type': '/devices/route/list',
  '/devices/route/:id/:deviceid': '/devices/route/list',
};

/** Query parameters that name one object of the tenant (`/policy/list?policy=<id>` opens its editor). */
const OBJECT_PARAMS = ['policy'] as const;

/** The served route a path shows: a pattern without parameters wins (`/users/list` is not `/users/:id`). */
function routeOf(pathname: string): string | undefined {
  const matches = SERVED_ROUTES.filter((pattern) => matchesPattern(pattern, pathname));
  const params = (pattern: string) => (pattern.match(/:/g) ?? []).length;
  return matches.sort((a, b) => params(a) - params(b))[0];
}

/**
 * Where the console goes when the working tenant becomes `tenant`, from `pathname` and `search`: the same screen
 * of the new tenant where the path names the tenant, the area's list where it names one of the old tenant's
 * objects, the same address without the object's parameter where a query names one; null to stay put.
 */
export function pathAfterTenantSwitch(pathname: string, search: string, tenant: string): string | null {
  if (matchesPattern(GLOBAL_DASHBOARD, pathname)) return null;
  const tenantScreen = TENANT_SCREENS.find((pattern) => matchesPattern(pattern, pathname));
  if (tenantScreen) return buildPath(tenantScreen, tenant);
  const route = routeOf(pathname);
  if (route && OBJECT_SCREENS[route]) return OBJECT_SCREENS[route];
  const params = new URLSearchParams(search);
  if (OBJECT_PARAMS.some((name) => params.has(name))) {
    for (const name of OBJECT_PARAMS) params.delete(name);
    // A new policy's type goes with its editor.
    params.delete('type');
    const rest = params.toString();
    return rest ? `${pathname}?${rest}` : pathname;
  }
  return null;
}
