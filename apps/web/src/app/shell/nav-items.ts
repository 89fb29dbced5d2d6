import { buildPath, type Permission, type Role } from '@palisade/contracts';

/** A link of the sidebar. */
export interface NavLink {
  id: string;
  label: string;
  to: string;
  /** The link is shown only to users holding this. */
  permission?: Permission;
  /** The link is shown only to users of one of these roles (a console of the role, not a permission). */
  roles?: readonly Role[];
  /** A count shown beside the link (and its section): the access requests waiting for a decision. */
  badge?: 'accessRequests';
}

/** A sidebar entry: a link, or a section with links that opens and closes (the sidebar's `menu`). */
export interface NavEntry extends NavLink {
  icon: 'dashboard' | 'users' | 'policies' | 'tenant' | 'settings' | 'events';
  children?: NavLink[];
}

/** The global view of the SASE dashboard; the dashboard screen reads it as "the working tenant". */
export const GLOBAL_DASHBOARD_ID = 'global';

type Translate = (key: string, defaultValue: string) => string;

/** The roles with a partner console (`/admin-console`). */
export const PARTNER_CONSOLE_ROLES: readonly Role[] = ['partner_admin', 'platform_admin'];

/**
 * The sidebar of the screens that exist today, with the entries the user's permissions (a built-in role's or a
 * custom role's) do not cover left out, and those of other roles (`role`: the session's) too. A section whose
 * links are all hidden is hidden too. Labels are translated here so the keys stay static.
 */
export function buildNav(
  t: Translate,
  permissions: readonly Permission[],
  tenant: string,
  role?: Role,
  /** Whether a link's screen is included in the working tenant (its feature flags, lib/tenant-flags.ts). */
  isIncluded: (to: string) => boolean = () => true,
): NavEntry[] {
  const entries: NavEntry[] = [
    {
      id: 'dashboard',
      icon: 'dashboard',
      label: t('shell.nav.dashboard', 'Dashboard'),
      to: buildPath('/main-dashboards/:id/SASEDashboard', GLOBAL_DASHBOARD_ID),
      permission: 'dashboard:view',
    },
    {
      id: 'dashboards',
      icon: 'dashboard',
      label: t('shell.nav.dashboards', 'Dashboards'),
      to: '/main-dashboards/SIADashboard',
      permission: 'dashboard:view',
      children: [
        {
          id: 'dashboards-sia',
          label: t('shell.nav.dashboardsSia', 'Internet access'),
          to: '/main-dashboards/SIADashboard',
          permission: 'dashboard:view',
        },
        {
          id: 'dashboards-spa',
          label: t('shell.nav.dashboardsSpa', 'Private access'),
          to: '/main-dashboards/SPADashboard',
          permission: 'dashboard:view',
        },
        {
          id: 'dashboards-threats',
          label: t('shell.nav.dashboardsThreats', 'Threats'),
          to: '/main-dashboards/threats',
          permission: 'dashboard:view',
        },
        {
          id: 'dashboards-analytics',
          label: t('shell.nav.dashboardsAnalytics', 'Analytics'),
          to: '/main-dashboards/analytics',
          permission: 'dashboard:view',
        },
        {
          id: 'dashboards-live',
          label: t('shell.nav.dashboardsLive', 'Live traffic'),
          to: '/live',
          permission: 'dashboard:view',
        },
      ],
    },
    {
      id: 'users',
      icon: 'users',
      label: t('shell.nav.users', 'Users'),
      to: '/users/list',
      permission: 'users:view',
      children: [
        {
          id: 'users-list',
          label: t('shell.nav.usersList', 'All users'),
          to: '/users/list',
          permission: 'users:view',
        },
        {
          id: 'users-add',
          label: t('shell.nav.usersAdd', 'Add user'),
          to: '/users/add',
          permission: 'users:create',
        },
        {
          id: 'users-groups',
          label: t('shell.nav.usersGroups', 'Groups'),
          to: '/users/groups',
          permission: 'groups:view',
        },
        {
          id: 'users-devices',
          label: t('shell.nav.usersDevices', 'Users and devices'),
          to: '/users/users-devices',
          permission: 'devices:view',
        },
        {
          id: 'users-rmm-deployment',
          label: t('shell.nav.usersRmmDeployment', 'RMM deployment'),
          to: '/users/rmm-deployment',
          permission: 'devices:view',
        },
        {
          id: 'users-agentless',
          label: t('shell.nav.usersAgentless', 'Agentless access'),
          to: '/users/agentless',
          permission: 'devices:view',
        },
        {
          id: 'users-policy-view',
          label: t('shell.nav.usersPolicyView', 'Policies per user'),
          to: '/users/user-policy-view',
          permission: 'policies:view',
        },
        {
          id: 'users-roles',
          label: t('shell.nav.usersRoles', 'Roles'),
          to: '/users/roles',
          permission: 'roles:view',
        },
      ],
    },
    {
      id: 'policies',
      icon: 'policies',
      label: t('shell.nav.policies', 'Policies'),
      to: '/policy/list',
      permission: 'policies:view',
      children: [
        {
          id: 'policy-list',
          label: t('shell.nav.policyList', 'Policies'),
          to: '/policy/list',
          permission: 'policies:view',
        },
        {
          id: 'policy-groups',
          label: t('shell.nav.policyGroups', 'Policy groups'),
          to: '/policy/policyGroups',
          permission: 'policies:view',
        },
        {
          id: 'policy-locations',
          label: t('shell.nav.policyLocations', 'Locations'),
          to: '/policy/locations',
          permission: 'policies:view',
        },
        {
          id: 'policy-apps',
          label: t('shell.nav.policyApps', 'Applications'),
          to: '/policy/apps',
          permission: 'policies:view',
        },
        {
          id: 'policy-web-categories',
          label: t('shell.nav.policyWebCategories', 'Web categories'),
          to: '/policy/web-categories',
          permission: 'policies:view',
        },
        {
          id: 'policy-threat-intel',
          label: t('shell.nav.policyThreatIntel', 'Threat intelligence'),
          to: '/policy/threat-intel',
          permission: 'policies:view',
        },
        {
          id: 'policy-maliciousip',
          label: t('shell.nav.policyMaliciousIp', 'Malicious IPs'),
          to: '/policy/maliciousip',
          permission: 'policies:view',
        },
        {
          id: 'policy-geo-controls',
          label: t('shell.nav.policyGeoControls', 'Geo controls'),
          to: '/policy/geo-controls',
          permission: 'policies:view',
        },
        {
          id: 'policy-blocked-apps',
          label: t('shell.nav.policyBlockedApps', 'Blocked apps'),
          to: '/policy/blocked-apps',
          permission: 'policies:view',
        },
        {
          id: 'policy-access-requests',
          label: t('shell.nav.policyAccessRequests', 'Access requests'),
          to: '/policy/access-requests',
          permission: 'policies:view',
          badge: 'accessRequests',
        },
      ],
    },
    {
      id: 'cybernodes',
      // The sidebar has no gateway icon of its own yet: the shield of what they enforce.
      icon: 'policies',
      label: t('gateways.nav.cybernodes', 'Cybernodes'),
      to: '/cybernodes/list',
      permission: 'gateways:view',
      children: [
        {
          id: 'cybernodes-list',
          label: t('gateways.nav.list', 'All gateways'),
          to: '/cybernodes/list',
          permission: 'gateways:view',
        },
        {
          id: 'cybernodes-virtual',
          label: t('gateways.nav.virtual', 'Virtual cybernodes'),
          to: '/cybernodes/virtual',
          permission: 'gateways:view',
        },
        {
          id: 'cybernodes-map',
          label: t('gateways.nav.map', 'Network map'),
          to: '/servers-nwmap',
          permission: 'gateways:view',
        },
        {
          id: 'cybernodes-routes',
          label: t('routes.nav', 'Routes'),
          to: '/devices/route/list',
          permission: 'policies:view',
        },
      ],
    },
    {
      id: 'devices',
      // The sidebar has no device icon of its own yet: the list of the inventory.
      icon: 'events',
      label: t('devices.nav.title', 'Devices'),
      to: '/devices/list',
      permission: 'devices:view',
      children: [
        {
          id: 'devices-list',
          label: t('devices.nav.list', 'All devices'),
          to: '/devices/list',
          permission: 'devices:view',
        },
        {
          id: 'devices-add',
          label: t('devices.nav.add', 'Add device'),
          to: '/devices/add',
          permission: 'devices:create',
        },
        {
          id: 'devices-site-add',
          label: t('devices.nav.addSite', 'Add site gateway'),
          to: '/devices/new/add',
          permission: 'gateways:create',
        },
        {
          id: 'devices-internal',
          label: t('internalDevices.nav', 'Internal devices'),
          to: '/devices/internal-devices',
          permission: 'gateways:view',
        },
        {
          id: 'devices-policies',
          label: t('devices.nav.policies', 'Device policies'),
          to: '/devices/policies/list',
          permission: 'policies:view',
        },
        {
          id: 'devices-private-services',
          label: t('privateAccess.nav.services', 'Private services'),
          to: '/devices/spa/service',
          permission: 'gateways:view',
        },
        {
          id: 'devices-private-mesh',
          label: t('privateAccess.nav.mesh', 'Private access mesh'),
          to: '/devices/spa/mesh',
          permission: 'gateways:view',
        },
        {
          id: 'devices-ztna-firewall',
          label: t('privateAccess.nav.ztna', 'ZTNA firewall'),
          to: '/devices/ztna-firewall',
          permission: 'gateways:view',
        },
        {
          id: 'devices-local-policies',
          label: t('localControls.nav.policies', 'Local policies'),
          to: '/devices/local-policies',
          permission: 'gateways:view',
        },
        {
          id: 'devices-local-categories',
          label: t('localControls.nav.categories', 'Local web categories'),
          to: '/devices/cgw-categories',
          permission: 'gateways:view',
        },
        {
          id: 'devices-local-geo-controls',
          label: t('localControls.nav.countries', 'Local geo controls'),
          to: '/devices/local-geo-controls',
          permission: 'gateways:view',
        },
        {
          id: 'devices-malicious-sites',
          label: t('localControls.nav.feeds', 'Malicious sites'),
          to: '/devices/malicious-sites',
          permission: 'gateways:view',
        },
        {
          id: 'devices-site-performance',
          label: t('sitePerformance.nav', 'Site performance'),
          to: '/devices/site-performance',
          permission: 'gateways:view',
        },
      ],
    },
    {
      id: 'admin-console',
      icon: 'tenant',
      label: t('partners.nav', 'Partner console'),
      to: '/admin-console',
      permission: 'tenant:view',
      roles: PARTNER_CONSOLE_ROLES,
    },
    {
      id: 'tenant',
      icon: 'tenant',
      label: t('shell.nav.tenant', 'Tenant'),
      to: buildPath('/tenant/:id', tenant),
      permission: 'tenant:view',
      children: [
        {
          id: 'tenant-overview',
          label: t('shell.nav.tenantOverview', 'Overview'),
          to: buildPath('/tenant/:id', tenant),
          permission: 'tenant:view',
        },
        {
          id: 'tenant-settings',
          label: t('shell.nav.tenantSettings', 'Tenant settings'),
          to: buildPath('/tenant/:id/settings', tenant),
          permission: 'tenant:view',
        },
        {
          id: 'tenant-configurations',
          label: t('shell.nav.tenantConfigurations', 'Configurations'),
          to: '/configurations',
          permission: 'tenant:view',
        },
        {
          id: 'tenant-subscription',
          label: t('shell.nav.tenantSubscription', 'Subscription'),
          to: buildPath('/tenant/:id/subscriptions/', tenant),
          permission: 'billing:view',
        },
        {
          id: 'tenant-subscription-history',
          label: t('shell.nav.tenantSubscriptionHistory', 'Subscription history'),
          to: buildPath('/tenant/:id/subscriptions/history', tenant),
          permission: 'billing:view',
        },
        {
          id: 'tenant-subscription-usage',
          label: t('shell.nav.tenantSubscriptionUsage', 'Usage'),
          to: '/tenant/subscription/usage',
          permission: 'billing:view',
        },
      ],
    },
    {
      id: 'events',
      icon: 'events',
      label: t('shell.nav.events', 'Events'),
      to: '/events/admin',
      permission: 'events:view',
      children: [
        {
          id: 'events-admin',
          label: t('shell.nav.eventsAdmin', 'Admin events'),
          to: '/events/admin',
          permission: 'events:view',
        },
        {
          id: 'events-connection-status',
          label: t('shell.nav.eventsConnections', 'Connection status'),
          to: '/events/connection-status',
          permission: 'events:view',
        },
        {
          id: 'events-device-events',
          label: t('shell.nav.eventsDevices', 'Device events'),
          to: '/events/device-events',
          permission: 'events:view',
        },
      ],
    },
    {
      id: 'reports',
      icon: 'dashboard',
      label: t('shell.nav.reports', 'Reports'),
      to: '/reports/dsb',
      permission: 'dashboard:view',
      children: [
        {
          id: 'reports-dsb',
          label: t('shell.nav.reportsDsb', 'Daily security brief'),
          to: '/reports/dsb',
          permission: 'dashboard:view',
        },
        {
          id: 'reports-analytics',
          label: t('shell.nav.reportsAnalytics', 'Traffic analytics'),
          to: '/reports/analytics',
          permission: 'dashboard:view',
        },
        {
          id: 'reports-weekly',
          label: t('shell.nav.reportsWeekly', 'Weekly SASE insights'),
          to: '/reports/weekly-sase-insights',
          permission: 'dashboard:view',
        },
        {
          id: 'reports-compliance',
          label: t('shell.nav.reportsCompliance', 'Security compliance'),
          to: '/reports/security-compliance',
          permission: 'dashboard:view',
        },
      ],
    },
    { id: 'settings', icon: 'settings', label: t('shell.nav.settings', 'Settings'), to: '/settings' },
  ];
  const allowed = (link: NavLink) =>
    (!link.permission || permissions.includes(link.permission)) &&
    (!link.roles || (role !== undefined && link.roles.includes(role))) &&
    isIncluded(link.to);
  return entries
    .filter(allowed)
    .map((entry) => (entry.children ? { ...entry, children: entry.children.filter(allowed) } : entry))
    .filter((entry) => !entry.children || entry.children.length > 0);
}

/**
 * Where a signed-in user lands: the dashboard when they may see it, otherwise the first screen of the sidebar
 * their permissions allow (a custom role without `dashboard:view` would otherwise land on a 403).
 */
export function landingPath(permissions: readonly Permission[], tenant: string): string {
  const t: Translate = (_key, defaultValue) => defaultValue;
  const [first] = buildNav(t, permissions, tenant);
  return first?.children?.[0]?.to ?? first?.to ?? '/settings';
}
