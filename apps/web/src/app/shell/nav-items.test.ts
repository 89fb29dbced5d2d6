import {
  CONFIG_FLAGS,
  FEATURE_FLAGS,
  type Permission,
  ROLE_PERMISSIONS,
  type Role,
} from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { isRouteIncluded } from '../../lib/tenant-flags';
import { buildNav, landingPath } from './nav-items';

const t = (_key: string, defaultValue: string) => defaultValue;
const nav = (role: Role, tenant = 'acme') => buildNav(t, ROLE_PERMISSIONS[role], tenant);
const ids = (entries: ReturnType<typeof buildNav>) =>
  entries.flatMap((entry) => [entry.id, ...(entry.children ?? []).map((child) => child.id)]);

describe('buildNav', () => {
  it('shows every built screen to an owner, with the tenant in the tenant links', () => {
    const entries = nav('owner');
    expect(ids(entries)).toEqual([
      'dashboard',
      'dashboards',
      'dashboards-sia',
      'dashboards-spa',
      'dashboards-threats',
      'dashboards-analytics',
      'dashboards-live',
      'users',
      'users-list',
      'users-add',
      'users-groups',
      'users-devices',
      'users-rmm-deployment',
      'users-agentless',
      'users-policy-view',
      'users-roles',
      'policies',
      'policy-list',
      'policy-groups',
      'policy-locations',
      'policy-apps',
      'policy-web-categories',
      'policy-threat-intel',
      'policy-maliciousip',
      'policy-geo-controls',
      'policy-blocked-apps',
      'policy-access-requests',
      'cybernodes',
      'cybernodes-list',
      'cybernodes-virtual',
      'cybernodes-map',
      'cybernodes-routes',
      'devices',
      'devices-list',
      'devices-add',
      'devices-site-add',
      'devices-internal',
      'devices-policies',
      'devices-private-services',
      'devices-private-mesh',
      'devices-ztna-firewall',
      'devices-local-policies',
      'devices-local-categories',
      'devices-local-geo-controls',
      'devices-malicious-sites',
      'devices-site-performance',
      'tenant',
      'tenant-overview',
      'tenant-settings',
      'tenant-configurations',
      'tenant-subscription',
      'tenant-subscription-history',
      'tenant-subscription-usage',
      'events',
      'events-admin',
      'events-connection-status',
      'events-device-events',
      'reports',
      'reports-dsb',
      'reports-analytics',
      'reports-weekly',
      'reports-compliance',
      'settings',
    ]);
    expect(entries.find((e) => e.id === 'tenant')?.children?.[1].to).toBe('/tenant/acme/settings');
    expect(entries[0].to).toBe('/main-dashboards/global/SASEDashboard');
  });

  it('hides what the role cannot do', () => {
    expect(ids(nav('auditor'))).not.toContain('users-add');
    expect(ids(nav('billing_admin'))).not.toContain('users');
    expect(ids(nav('billing_admin'))).not.toContain('events-admin');
    expect(ids(nav('auditor'))).toContain('events-admin');
    expect(ids(nav('auditor'))).toContain('events-connection-status');
    expect(ids(nav('helpdesk'))).toContain('events-device-events');
    expect(ids(nav('billing_admin'))).not.toContain('events-device-events');
    expect(ids(nav('helpdesk'))).not.toContain('policies');
    expect(ids(nav('security_analyst'))).toContain('policy-list');
    expect(ids(nav('billing_admin'))).not.toContain('cybernodes');
    expect(ids(nav('helpdesk'))).toContain('cybernodes-virtual');
    expect(ids(nav('helpdesk'))).toContain('cybernodes-map');
    expect(ids(nav('billing_admin'))).not.toContain('cybernodes-map');
    // Routes are policy rules: a role that sees gateways but not policies does not get them.
    expect(ids(nav('security_analyst'))).toContain('cybernodes-routes');
    expect(ids(nav('helpdesk'))).not.toContain('cybernodes-routes');
    // Internal devices are what site gateways report: a role that sees gateways and devices gets them.
    expect(ids(nav('auditor'))).toContain('devices-internal');
    expect(ids(nav('billing_admin'))).not.toContain('devices-internal');
    // Private access is a gateways matter: a role that sees the gateways sees it, billing does not.
    expect(ids(nav('helpdesk'))).toContain('devices-private-services');
    expect(ids(nav('security_analyst'))).toContain('devices-ztna-firewall');
    expect(ids(nav('billing_admin'))).not.toContain('devices-ztna-firewall');
    // Site performance is what the site gateways report: a role that sees the gateways sees it.
    expect(ids(nav('helpdesk'))).toContain('devices-site-performance');
    expect(ids(nav('billing_admin'))).not.toContain('devices-site-performance');
    // Local controls are what a site gateway enforces itself: a role that sees the gateways sees them.
    expect(ids(nav('helpdesk'))).toContain('devices-local-policies');
    expect(ids(nav('auditor'))).toContain('devices-malicious-sites');
    expect(ids(nav('billing_admin'))).not.toContain('devices-local-geo-controls');
    // The telemetry dashboards are dashboards: every role that sees the dashboard sees them, an end user does not.
    expect(ids(nav('billing_admin'))).toContain('dashboards-threats');
    expect(ids(nav('auditor'))).toContain('dashboards-live');
    expect(ids(nav('user'))).not.toContain('dashboards');
    // The reports are read with the dashboard's right: billing sees them, an end user does not.
    expect(ids(nav('billing_admin'))).toContain('reports-compliance');
    expect(ids(nav('user'))).not.toContain('reports');
    // The subscription is a billing matter: billing sees it, a helpdesk that sees the tenant does not.
    expect(ids(nav('billing_admin'))).toContain('tenant-subscription');
    expect(ids(nav('auditor'))).toContain('tenant-subscription-history');
    expect(ids(nav('helpdesk'))).toContain('tenant-overview');
    expect(ids(nav('helpdesk'))).not.toContain('tenant-subscription-usage');
  });

  it('follows the permissions it is given, such as a custom role’s', () => {
    const viewOnly: Permission[] = ['users:view', 'roles:view'];
    expect(ids(buildNav(t, viewOnly, 'acme'))).toEqual(['users', 'users-list', 'users-roles', 'settings']);
    expect(ids(nav('helpdesk'))).not.toContain('users-roles');
  });

  it('shows the partner console to partner and platform admins only', () => {
    const withRole = (role: Role) => ids(buildNav(t, ROLE_PERMISSIONS[role], 'acme', role));
    expect(withRole('partner_admin')).toContain('admin-console');
    expect(withRole('platform_admin')).toContain('admin-console');
    expect(withRole('owner')).not.toContain('admin-console');
    expect(withRole('admin')).not.toContain('admin-console');
    expect(ids(nav('partner_admin'))).not.toContain('admin-console');
    const entry = buildNav(t, ROLE_PERMISSIONS.partner_admin, 'acme', 'partner_admin').find(
      (e) => e.id === 'admin-console',
    );
    expect(entry?.to).toBe('/admin-console');
  });

  it('leaves an end user only the settings', () => {
    expect(ids(nav('user'))).toEqual(['settings']);
  });

  it('hides the screens whose feature or configuration flag the working tenant has off', () => {
    const flags = {
      features: FEATURE_FLAGS.filter((flag) => flag !== 'ztnaFirewall' && flag !== 'analyticsDashboard'),
      configurations: { ...CONFIG_FLAGS },
    };
    const entries = ids(
      buildNav(t, ROLE_PERMISSIONS.owner, 'acme', 'owner', (to) => isRouteIncluded(flags, to)),
    );
    expect(entries).not.toContain('devices-ztna-firewall');
    expect(entries).not.toContain('dashboards-analytics');
    expect(entries).not.toContain('reports-analytics');
    expect(entries).toContain('policy-web-categories');
    expect(entries).toContain('reports-compliance');
    expect(ids(nav('owner'))).toContain('devices-ztna-firewall');
  });

  it('lands on the dashboard when allowed, else on the first permitted screen', () => {
    expect(landingPath(ROLE_PERMISSIONS.owner, 'acme')).toBe('/main-dashboards/global/SASEDashboard');
    expect(landingPath(['users:view', 'roles:view'], 'acme')).toBe('/users/list');
    expect(landingPath(['policies:view'], 'acme')).toBe('/policy/list');
    expect(landingPath([], 'acme')).toBe('/settings');
  });
});
