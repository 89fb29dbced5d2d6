import { CONFIG_FLAG_NAMES, type ConfigFlag, FEATURE_FLAGS, type FeatureFlag } from './features';
import type { ServedRoute } from './routes';

/**
 * The screens behind each flag: the web hides their navigation entries and shows "not included in this
 * workspace" instead of them when the working tenant's flag is off. The API routes behind a flag name it in their
 * endpoint descriptor (`feature`), and the server refuses them (403 `feature_disabled`). Every flag gates a
 * screen, a route or a part of a screen ({@link FEATURE_PARTS}); a test walks them all.
 */
export const FEATURE_ROUTES: Readonly<Record<FeatureFlag, readonly ServedRoute[]>> = {
  webFilter: ['/policy/web-categories'],
  gatewayPolicies: ['/devices/policies/list'],
  ztnaFirewall: ['/devices/ztna-firewall'],
  securityCompliance: ['/reports/security-compliance'],
  analyticsDashboard: ['/main-dashboards/analytics', '/reports/analytics'],
  geoOutwards: ['/policy/geo-controls'],
  // The XDR screens join when the area lands (issue 26); until then the flag gates the parts below.
  xdr: [],
};

/**
 * Parts of screens behind a flag, hidden while it is off (each named part has a web test that proves it), and what
 * the server refuses with them.
 * - `xdr`: the users list's XDR column and its bulk actions (the server refuses `enableXdr`/`disableXdr` and an
 *   `isxdrenabled` set to true, 403 `feature_disabled`), the user form's XDR switch and detail row, the users
 *   dashboard's XDR tile.
 */
export const FEATURE_PARTS = {
  xdr: ['users.xdrColumn', 'users.xdrBulkActions', 'users.xdrField', 'dashboard.xdrTile'],
} as const satisfies Partial<Record<FeatureFlag, readonly string[]>>;

/** The screens behind each configuration flag, hidden like {@link FEATURE_ROUTES} when it is off. */
export const CONFIG_ROUTES: Readonly<Record<ConfigFlag, readonly ServedRoute[]>> = {
  // The copy variants of spec §2.
  copyAllowed: [
    '/users/:id/:type',
    '/groups/:id/:type',
    '/device/:id/:type',
    '/policy/policyGroups/:id/:type',
    '/device/route/:id/:type',
  ],
  ieDisabled: [],
  webCategoryEnabled: [],
  policyGroups: ['/policy/policyGroups', '/policy/policyGroups/:id'],
};

/** The flag (feature or configuration) a screen route is behind, or null. */
export function routeFlag(
  route: string,
): { kind: 'feature'; flag: FeatureFlag } | { kind: 'config'; flag: ConfigFlag } | null {
  for (const flag of FEATURE_FLAGS) {
    if ((FEATURE_ROUTES[flag] as readonly string[]).includes(route)) return { kind: 'feature', flag };
  }
  for (const flag of CONFIG_FLAG_NAMES) {
    if ((CONFIG_ROUTES[flag] as readonly string[]).includes(route)) return { kind: 'config', flag };
  }
  return null;
}
