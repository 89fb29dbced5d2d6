import { type Dispatch, lazy, type ReactNode, Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import {
  BuildingIcon,
  ChevronDownIcon,
  DashboardIcon,
  ListIcon,
  SettingsIcon,
  ShieldIcon,
  UsersIcon,
} from '../../components/ui/icons';
import { useSession, useWorkingTenant } from '../../lib/auth';
import { isRouteIncluded, useTenantFlags } from '../../lib/tenant-flags';
import classes from './app-shell.module.css';
import type { LayoutAction, SidebarState } from './layout-state';
import { buildNav, type NavEntry } from './nav-items';

const AccessRequestsBadge = lazy(async () => ({
  default: (await import('../../features/block-page/components/access-requests-badge')).AccessRequestsBadge,
}));

/** The count a link (or a section holding it) shows beside its label. */
const badgeOf = (badge: NavEntry['badge']) =>
  badge === 'accessRequests' ? (
    <Suspense fallback={null}>
      <AccessRequestsBadge />
    </Suspense>
  ) : null;

/** The id of the sidebar element, for the burger's `aria-controls`. */
export const SIDEBAR_ID = 'app-sidebar';

const ICONS: Record<NavEntry['icon'], ReactNode> = {
  dashboard: <DashboardIcon />,
  users: <UsersIcon />,
  policies: <ShieldIcon />,
  tenant: <BuildingIcon />,
  settings: <SettingsIcon />,
  events: <ListIcon />,
};

/** Props of {@link Sidebar}. */
export interface SidebarProps {
  state: SidebarState;
  isSticky: boolean;
  dispatch: Dispatch<LayoutAction>;
  /** The home link of the brand. */
  homePath: string;
}

/** The main navigation: the built screens the user's permissions allow, sections open one at a time. */
export function Sidebar({ state, isSticky, dispatch, homePath }: SidebarProps) {
  const { t } = useTranslation();
  const { session } = useSession();
  const tenant = useWorkingTenant();
  const { pathname } = useLocation();
  const permissions = session?.permissions;
  const role = session?.role;
  const flags = useTenantFlags();
  const entries = useMemo(
    () => (permissions ? buildNav(t, permissions, tenant, role, (to) => isRouteIncluded(flags, to)) : []),
    [t, permissions, tenant, role, flags],
  );

  // Open the section that holds the current screen, so the active link is visible.
  useEffect(() => {
    const section = entries.find((entry) => entry.children?.some((child) => child.to === pathname));
    if (section) dispatch({ type: 'sidebar/setMenu', menu: section.id });
  }, [entries, pathname, dispatch]);

  return (
    <nav
      id={SIDEBAR_ID}
      aria-label={t('shell.nav.label', 'Main navigation')}
      className={classes.sidebar}
      data-open={state.isOpen || undefined}
      data-sticky={isSticky || undefined}
    >
      <Link to={homePath} className={classes.brand}>
        <ShieldIcon size={26} />
        <span>{t('common.appName', 'Palisade')}</span>
      </Link>
      <ul className={classes.navList}>
        {entries.map((entry) => {
          if (!entry.children) {
            return (
              <li key={entry.id}>
                <NavLink to={entry.to} end className={classes.navLink}>
                  {ICONS[entry.icon]}
                  <span>{entry.label}</span>
                </NavLink>
              </li>
            );
          }
          const isExpanded = state.menu === entry.id;
          const listId = `nav-section-${entry.id}`;
          return (
            <li key={entry.id}>
              <button
                type="button"
                className={classes.navLink}
                aria-expanded={isExpanded}
                aria-controls={listId}
                onClick={() => dispatch({ type: 'sidebar/toggleMenu', menu: entry.id })}
              >
                {ICONS[entry.icon]}
                <span>{entry.label}</span>
                {badgeOf(entry.children.find((child) => child.badge)?.badge)}
                <ChevronDownIcon size={16} className={classes.chevron} />
              </button>
              <ul id={listId} className={classes.navSubList} hidden={!isExpanded}>
                {entry.children.map((child) => (
                  <li key={child.id}>
                    <NavLink to={child.to} end className={classes.navLink}>
                      <span>{child.label}</span>
                      {badgeOf(child.badge)}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
