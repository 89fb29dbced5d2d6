import { CONFIG_FLAG_NAMES, type ConfigFlag, FEATURE_FLAGS, type FeatureFlag } from './features';
import type { ServedRoute } from './routes';

/**
 * The screens behind each flag: the web hides their navigation entries and shows "not included in this
 * workspace" instead of them when the working tenant's flag is off. The API routes behind a flag name it in their
 * endpoint descriptor (`feature`), and the server refuses them (403 `feature_disabled`). A flag without screens
 * here gates nothing built yet (it is stored and shown in the web, ready for its screen).
 */
export const FEATURE_ROUTES: Readonly<Record<FeatureFlag, readonly ServedRoute[]>> = {
  webFilter: ['/policy/web-categories'],
  privateDns: [],
  gatewayPolicies: ['/devices/policies/list'],
  identitySettings: [],
  ipamDns: [],
  ztnaFirewall: ['/devices/ztna-firewall'],
  securityCompliance: ['/reports/security-compliance'],
  workspaceInstall: [],
  analyticsDashboard: ['/main-dashboards/analytics', '/reports/analytics'],
  silentAuth: [],
  wgTab: [],
  rotateToggle: [],
  geoOutwards: ['/policy/geo-controls'],
  newSkus: [],
};

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
  advancedRuleSyntax: [],
  policyGroups: [],
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
