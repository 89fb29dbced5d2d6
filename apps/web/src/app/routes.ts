/**
 * Which screen module serves each path of `SERVED_ROUTES` (packages/contracts). Typed by the served-route
 * union, so a route added to the contracts without a screen here fails the type-check. Every loader is a
 * literal `import()`, which is what makes each screen its own chunk.
 */
import type { ServedRoute } from '@palisade/contracts';
import type { ComponentType } from 'react';

/** What a screen module exports. */
export interface ScreenModule {
  Component: ComponentType;
}

/** One row of the table: the short name (the title key in routeTranslation.json) and the module loader. */
export interface ScreenRoute {
  name: string;
  load: () => Promise<ScreenModule>;
}

/**
 * A policy-object screen with the policy simulator in its header (app/screens/policy-object-screen.tsx): the two
 * chunks load side by side.
 */
const objectScreen = (load: () => Promise<ScreenModule>) => async (): Promise<ScreenModule> => {
  const [screen, { withSimulator }] = await Promise.all([load(), import('./screens/policy-object-screen')]);
  return withSimulator(screen);
};

export const SCREENS: Record<ServedRoute, ScreenRoute> = {
  '/sign-in': { name: 'signIn', load: () => import('../features/auth/screens/sign-in') },
  '/:partner/sign-in': { name: 'partnerSignIn', load: () => import('../features/auth/screens/sign-in') },
  '/ntgr-signout': { name: 'signedOut', load: () => import('../features/auth/screens/ntgr-signout') },
  '/sign-up': { name: 'signUp', load: () => import('../features/auth/screens/sign-up') },
  '/email-verification': {
    name: 'emailVerification',
    load: () => import('../features/auth/screens/email-verification'),
  },
  '/sso-verify': { name: 'ssoVerify', load: () => import('../features/auth/screens/sso-verify') },
  '/verify/email-verification': {
    name: 'verifyEmailCode',
    load: () => import('../features/auth/screens/verify-email-code'),
  },
  '/verify/otp-verification': {
    name: 'verifyOtp',
    load: () => import('../features/auth/screens/verify-otp'),
  },
  '/verify/wg/:id': {
    name: 'enrolDevice',
    load: () => import('../features/devices/screens/enrol-device'),
  },
  '/verify/:id': {
    name: 'verifyTransaction',
    load: () => import('../features/auth/screens/verify-transaction'),
  },
  '/verify/report-recipient/:id': {
    name: 'confirmReportRecipient',
    load: () => import('../features/reports/screens/confirm-recipient'),
  },
  '/admin-console': {
    name: 'adminConsole',
    load: () => import('../features/partners/screens/admin-console'),
  },
  '/admin-console/settings': {
    name: 'partnerSettings',
    load: () => import('../features/partners/screens/partner-settings'),
  },
  '/admin-console/templates': {
    name: 'policyTemplates',
    load: () => import('../features/policy-templates/screens/templates-list'),
  },
  '/admin-console/templates/:id': {
    name: 'policyTemplate',
    load: () => import('../features/policy-templates/screens/template-detail'),
  },
  '/network-error': { name: 'networkError', load: () => import('../features/errors/screens/network-error') },
  '/blockaccess': { name: 'blockAccess', load: () => import('../features/block-page/screens/block-page') },
  '/blockaccess/:type': {
    name: 'blockAccess',
    load: () => import('../features/block-page/screens/block-page'),
  },
  '/blockaccess/:type/:id': {
    name: 'blockAccess',
    load: () => import('../features/block-page/screens/block-page'),
  },
  '/settings': { name: 'settings', load: () => import('./screens/settings-page') },
  '/configurations': {
    name: 'configurations',
    load: () => import('../features/configurations/screens/configurations'),
  },
  '/users/list': { name: 'usersList', load: () => import('../features/users/screens/users-list') },
  '/users/add': { name: 'userAdd', load: () => import('../features/users/screens/user-add') },
  '/users/:id': { name: 'userDetail', load: () => import('./screens/user-page') },
  '/users/:id/:type': { name: 'userCopy', load: () => import('../features/users/screens/user-copy') },
  '/users/roles': { name: 'roles', load: () => import('./screens/roles-page') },
  '/users/users-devices': {
    name: 'usersDevices',
    load: () => import('../features/devices/screens/users-devices'),
  },
  '/users/rmm-deployment': {
    name: 'rmmDeployment',
    load: () => import('../features/devices/screens/rmm-deployment'),
  },
  '/users/agentless': { name: 'agentless', load: () => import('../features/devices/screens/agentless') },
  '/users/user-policy-view': {
    name: 'userPolicyView',
    load: () => import('../features/users/screens/user-policy-view'),
  },
  '/users/groups': { name: 'groupsList', load: () => import('../features/groups/screens/groups-list') },
  '/users/groups/add': { name: 'groupAdd', load: () => import('../features/groups/screens/group-add') },
  '/groups/:id': { name: 'groupDetail', load: () => import('../features/groups/screens/group-detail') },
  '/groups/:id/:type': { name: 'groupCopy', load: () => import('../features/groups/screens/group-copy') },
  '/events/admin': { name: 'adminEvents', load: () => import('../features/events/screens/admin-events') },
  '/events/connection-status': {
    name: 'connectionEvents',
    load: () => import('../features/telemetry/screens/connection-status'),
  },
  '/events/device-events': {
    name: 'deviceEvents',
    load: () => import('../features/telemetry/screens/device-events'),
  },
  '/tenant/subscription/usage': {
    name: 'subscriptionUsage',
    load: () => import('../features/subscriptions/screens/subscription-usage'),
  },
  '/tenant/:id/subscriptions/': {
    name: 'subscription',
    load: () => import('../features/subscriptions/screens/subscription'),
  },
  '/tenant/:id/subscriptions/history': {
    name: 'subscriptionHistory',
    load: () => import('../features/subscriptions/screens/subscription-history'),
  },
  '/tenant/:id/settings': {
    name: 'tenantSettings',
    load: () => import('../features/tenant/screens/tenant-settings'),
  },
  '/tenant/:id': { name: 'tenantOverview', load: () => import('../features/tenant/screens/tenant-overview') },
  '/main-dashboards/:id/SASEDashboard': {
    name: 'saseDashboard',
    load: () => import('../features/dashboard/screens/sase-dashboard'),
  },
  // The telemetry dashboards (issue 12): each its own chunk; the chart library (@mantine/charts, recharts) is a
  // chunk they share, and the world map (d3-geo and its topology) one only the threats screen loads.
  '/main-dashboards/SIADashboard': {
    name: 'siaDashboard',
    load: () => import('../features/dashboards/screens/sia-dashboard'),
  },
  '/main-dashboards/SPADashboard': {
    name: 'spaDashboard',
    load: () => import('../features/dashboards/screens/spa-dashboard'),
  },
  '/main-dashboards/threats': {
    name: 'threatsDashboard',
    load: () => import('../features/dashboards/screens/threats-dashboard'),
  },
  '/main-dashboards/analytics': {
    name: 'analyticsDashboard',
    load: () => import('../features/dashboards/screens/analytics-dashboard'),
  },
  '/live': { name: 'liveDashboard', load: () => import('../features/dashboards/screens/live-dashboard') },
  // The reports (issue 12): each its own chunk, sharing the chart library's chunk with the dashboards.
  '/reports/dsb': { name: 'dsbReport', load: () => import('../features/reports/screens/dsb') },
  '/reports/analytics': {
    name: 'analyticsReport',
    load: () => import('../features/reports/screens/analytics'),
  },
  '/reports/weekly-sase-insights': {
    name: 'weeklySaseInsights',
    load: () => import('../features/reports/screens/weekly-sase-insights'),
  },
  '/reports/security-compliance': {
    name: 'securityCompliance',
    load: () => import('../features/reports/screens/security-compliance'),
  },
  '/policy/list': { name: 'policyList', load: () => import('../features/policies/screens/policy-list') },
  '/policy/policyGroups': {
    name: 'policyGroups',
    load: () => import('../features/policies/screens/policy-groups-list'),
  },
  '/policy/policyGroups/:id': {
    name: 'policyGroupDetail',
    load: () => import('../features/policies/screens/policy-group-detail'),
  },
  '/policy/policyGroups/:id/:type': {
    name: 'policyGroupCopy',
    load: () => import('../features/policies/screens/policy-group-copy'),
  },
  '/policy/locations': {
    name: 'policyLocations',
    load: objectScreen(() => import('../features/policy-objects/screens/locations')),
  },
  '/policy/apps': {
    name: 'policyApps',
    load: objectScreen(() => import('../features/policy-objects/screens/apps')),
  },
  '/policy/web-categories': {
    name: 'policyWebCategories',
    load: objectScreen(() => import('../features/policy-objects/screens/web-categories')),
  },
  '/policy/threat-intel': {
    name: 'policyThreatIntel',
    load: objectScreen(() => import('../features/policy-objects/screens/threat-intel')),
  },
  '/policy/maliciousip': {
    name: 'policyMaliciousIp',
    load: objectScreen(() => import('../features/policy-objects/screens/malicious-ip')),
  },
  '/policy/geo-controls': {
    name: 'policyGeoControls',
    load: objectScreen(() => import('../features/policy-objects/screens/geo-controls')),
  },
  '/policy/blocked-apps': {
    name: 'policyBlockedApps',
    load: objectScreen(() => import('../features/policy-objects/screens/blocked-apps')),
  },
  '/policy/access-requests': {
    name: 'policyAccessRequests',
    load: () => import('../features/block-page/screens/access-requests'),
  },
  '/cybernodes/list': {
    name: 'gatewaysList',
    load: () => import('../features/gateways/screens/gateways-list'),
  },
  '/cybernodes/virtual': {
    name: 'virtualGateways',
    load: () => import('../features/gateways/screens/virtual-gateways'),
  },
  '/cybernodes/view': {
    name: 'gatewayView',
    load: () => import('../features/gateways/screens/gateway-view'),
  },
  // Its own chunk, the only one with the graph library (@xyflow/react).
  '/servers-nwmap': {
    name: 'networkMap',
    load: () => import('../features/gateways/screens/network-map'),
  },
  '/devices/list': { name: 'devicesList', load: () => import('../features/devices/screens/devices-list') },
  '/devices/add': { name: 'deviceAdd', load: () => import('../features/devices/screens/device-add') },
  '/devices/policies/list': {
    name: 'devicePolicies',
    load: () => import('../features/devices/screens/device-policies'),
  },
  '/devices/new/add': { name: 'siteGatewayAdd', load: () => import('./screens/site-gateway-add-page') },
  '/devices/:id': { name: 'deviceDetail', load: () => import('./screens/device-page') },
  '/devices/internal-devices': {
    name: 'internalDevices',
    load: () => import('../features/internal-devices/screens/internal-devices-list'),
  },
  '/devices/internal-devices/:id': {
    name: 'internalDeviceDetail',
    load: () => import('../features/internal-devices/screens/internal-device-detail'),
  },
  '/devices/route/list': { name: 'routesList', load: () => import('../features/routes/screens/routes-list') },
  '/devices/route/:id': {
    name: 'routeDetail',
    load: () => import('../features/routes/screens/route-detail'),
  },
  '/device/route/:id/:type': {
    name: 'routeCopy',
    load: () => import('../features/routes/screens/route-copy'),
  },
  '/devices/route/:id/:deviceid': {
    name: 'deviceRoute',
    load: () => import('../features/routes/screens/device-route'),
  },
  '/devices/routes/': { name: 'routeAdd', load: () => import('../features/routes/screens/route-add') },
  '/device/:id/:type': {
    name: 'siteConfigCopy',
    load: () => import('../features/sites/screens/site-config-copy'),
  },
  '/devices/spa/service': {
    name: 'privateServices',
    load: () => import('../features/private-access/screens/private-services'),
  },
  '/devices/spa/mesh': {
    name: 'privateMesh',
    load: () => import('../features/private-access/screens/mesh'),
  },
  '/devices/ztna-firewall': {
    name: 'ztnaFirewall',
    load: () => import('../features/private-access/screens/ztna-firewall'),
  },
  '/devices/local-policies': {
    name: 'localPolicies',
    load: () => import('../features/local-controls/screens/local-policies'),
  },
  '/devices/cgw-categories': {
    name: 'localCategories',
    load: () => import('../features/local-controls/screens/cgw-categories'),
  },
  '/devices/local-geo-controls': {
    name: 'localGeoControls',
    load: () => import('../features/local-controls/screens/local-geo-controls'),
  },
  '/devices/malicious-sites': {
    name: 'maliciousSites',
    load: () => import('../features/local-controls/screens/malicious-sites'),
  },
  // Its own chunk, the only one with the charts (@mantine/charts, recharts).
  '/devices/site-performance': {
    name: 'sitePerformance',
    load: () => import('../features/site-performance/screens/site-performance'),
  },
  // The embedded dashboards (spec §2; packages/contracts embed.ts): shown without the shell (router.tsx), each a
  // small chunk of its own around a screen the console's route loads too, so no screen's chunk grows.
  '/embed/tenant/:tenant': { name: 'embedTenant', load: () => import('./screens/embed/tenant') },
  '/embed/5g/:tenant': { name: 'embed5g', load: () => import('./screens/embed/five-g') },
  '/embed/xdr/:tenant/:tenantType': { name: 'embedXdr', load: () => import('./screens/embed/xdr') },
  '/embed/spa/:tenant': { name: 'embedSpa', load: () => import('./screens/embed/spa') },
  '/embed/weekly-sase/:tenant': {
    name: 'embedWeeklySase',
    load: () => import('./screens/embed/weekly-sase'),
  },
  '/embed/weekly-site-performance/:tenant': {
    name: 'embedWeeklySitePerformance',
    load: () => import('./screens/embed/weekly-site-performance'),
  },
  '/embed/diagnostics/:tenant': {
    name: 'embedDiagnostics',
    load: () => import('./screens/embed/diagnostics'),
  },
  '/embed/intrusion-detection/:tenant': {
    name: 'embedIntrusionDetection',
    load: () => import('./screens/embed/intrusion-detection'),
  },
  '/embed/agentless/:tenant': { name: 'embedAgentless', load: () => import('./screens/embed/agentless') },
  '/embed/user-tag/:tenant/:userId/:userName': {
    name: 'embedUserTag',
    load: () => import('./screens/embed/user-tag'),
  },
  '/embed/global': { name: 'embedGlobal', load: () => import('./screens/embed/global') },
  '/embed/incident-response/:tenant': {
    name: 'embedIncidentResponse',
    load: () => import('./screens/embed/incident-response'),
  },
  '/embed/vulnerability-management/:tenant': {
    name: 'embedVulnerabilityManagement',
    load: () => import('./screens/embed/vulnerability-management'),
  },
  '/embed/ai-search/:tenant': { name: 'embedAiSearch', load: () => import('./screens/embed/ai-search') },
};

/** Whether a route pattern renders without a session, in the auth layout (contracts: the one rule). */
/** Whether a route pattern is an embedded dashboard's, rendered without the shell (contracts). */
export { isEmbedRoute, isPublicRoute } from '@palisade/contracts';
