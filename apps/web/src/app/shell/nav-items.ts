import { buildPath, type Permission } from '@palisade/contracts';

/** A link of the sidebar. */
export interface NavLink {
  id: string;
  label: string;
  to: string;
  /** The link is shown only to users holding this. */
  permission?: Permission;
}

/** A sidebar entry: a link, or a section with links that opens and closes (the sidebar's `menu`). */
export interface NavEntry extends NavLink {
  icon: 'dashboard' | 'users' | 'tenant' | 'settings' | 'events';
  children?: NavLink[];
}

/** The global view of the SASE dashboard; the dashboard screen reads it as "the working tenant". */
export const GLOBAL_DASHBOARD_ID = 'global';

type Translate = (key: string, defaultValue: string) => string;

/**
 * The sidebar of the screens that exist today, with the entries the user's permissions (a built-in role's or a
 * custom role's) do not cover left out. A section whose links are all hidden is hidden too. Labels are
 * translated here so the keys stay static.
 */
export function buildNav(t: Translate, permissions: readonly Permission[], tenant: string): NavEntry[] {
  const entries: NavEntry[] = [
    {
      id: 'dashboard',
      icon: 'dashboard',
      label: t('shell.nav.dashboard', 'Dashboard'),
      to: buildPath('/main-dashboards/:id/SASEDashboard', GLOBAL_DASHBOARD_ID),
      permission: 'dashboard:view',
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
          id: 'users-roles',
          label: t('shell.nav.usersRoles', 'Roles'),
          to: '/users/roles',
          permission: 'roles:view',
        },
      ],
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
      ],
    },
    { id: 'settings', icon: 'settings', label: t('shell.nav.settings', 'Settings'), to: '/settings' },
  ];
  const allowed = (link: NavLink) => !link.permission || permissions.includes(link.permission);
  return entries
    .filter(allowed)
    .map((entry) => (entry.children ? { ...entry, children: entry.children.filter(allowed) } : entry))
    .filter((entry) => !entry.children || entry.children.length > 0);
}
