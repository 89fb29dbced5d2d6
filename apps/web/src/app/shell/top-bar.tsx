import { ActionIcon, Avatar, Group, Menu, Select, Text, UnstyledButton } from '@mantine/core';
import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ChevronDownIcon, SettingsIcon, SidebarIcon, SignOutIcon } from '../../components/ui/icons';
import { useSession, useSetWorkingTenant, useWorkingTenant } from '../../lib/auth';
import { roleLabel } from '../../lib/role-names';
import { tenantDisplayName } from '../../lib/tenant-names';
import classes from './app-shell.module.css';
import { AppearanceMenu } from './appearance-menu';
import { LanguageMenu } from './language-menu';
import type { LayoutAction, LayoutState } from './layout-state';
import { SIDEBAR_ID } from './sidebar';
import { SupportMenuItems } from './support-menu';
import { pathAfterTenantSwitch } from './tenant-switch';

/** The working tenant's display name (the session names its own and every managed tenant). */
function TenantName() {
  const { session } = useSession();
  const name = tenantDisplayName(session, useWorkingTenant());
  return (
    <Text className={classes.tenantName} title={name} span>
      {name}
    </Text>
  );
}

/**
 * Picks the working tenant among the session's own and the ones it manages, by display name; shown in place of
 * the tenant name, so the working tenant is always in sight. Switching leaves a screen of one of the old tenant's
 * objects for its area's list (see {@link pathAfterTenantSwitch}).
 */
function TenantSwitcher() {
  const { t } = useTranslation();
  const { session } = useSession();
  const tenant = useWorkingTenant();
  const setWorkingTenant = useSetWorkingTenant();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  if (!session) return null;

  const names = [session.tenant, ...session.managedTenants.filter((name) => name !== session.tenant)];
  const options = names.map((name) => ({ value: name, label: tenantDisplayName(session, name) }));

  async function handleChange(next: string | null) {
    if (!next || next === tenant) return;
    // A partner's switch opens the tenant in edit mode first (its own tenant closes it); a refusal changes nothing.
    if (!(await setWorkingTenant(next))) return;
    const to = pathAfterTenantSwitch(pathname, search, next);
    if (to) navigate(to);
  }

  return (
    <Select
      aria-label={t('shell.tenant.switch', 'Working tenant')}
      className={classes.tenantSwitcher}
      data={options}
      value={tenant}
      onChange={(next) => void handleChange(next)}
      allowDeselect={false}
      searchable={options.length > 8}
      size="sm"
      w={260}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** The signed-in user's menu: who is signed in with which role, settings and sign out. */
function UserMenu() {
  const { t } = useTranslation();
  const { session, signOut } = useSession();
  if (!session) return null;
  const fullName = `${session.firstname} ${session.lastname}`.trim() || session.username;
  const initials = `${session.firstname.at(0) ?? ''}${session.lastname.at(0) ?? ''}`.toUpperCase() || '?';
  return (
    <Menu position="bottom-end" withinPortal width={240}>
      <Menu.Target>
        <UnstyledButton
          className={classes.headerButton}
          aria-label={t('shell.user.menu', 'Account menu of {{name}}', { name: fullName })}
        >
          <Group gap="xs" wrap="nowrap">
            <Avatar color="primary" radius="xl" size="sm">
              {initials}
            </Avatar>
            <Text size="sm" fw={500} className={classes.hideOnSmall}>
              {fullName}
            </Text>
            <ChevronDownIcon size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{session.username}</Menu.Label>
        <Menu.Label>
          {t('shell.user.role', 'Role: {{role}}', {
            role: roleLabel(t, session.role, session.customRoleName),
          })}
        </Menu.Label>
        <Menu.Item component={Link} to="/settings" leftSection={<SettingsIcon size={16} />}>
          {t('shell.user.settings', 'Settings')}
        </Menu.Item>
        <SupportMenuItems />
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<SignOutIcon size={16} />} onClick={() => void signOut()}>
          {t('shell.user.signOut', 'Sign out')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** Props of {@link TopBar}. */
export interface TopBarProps {
  layout: LayoutState;
  dispatch: Dispatch<LayoutAction>;
}

/** The header: sidebar toggle, tenant, tenant switcher, language, appearance and the user menu. */
export function TopBar({ layout, dispatch }: TopBarProps) {
  const { t } = useTranslation();
  const { session } = useSession();
  const { sidebar } = layout;
  const hasManagedTenants = (session?.managedTenants.length ?? 0) > 0;
  return (
    <header className={classes.header}>
      {sidebar.isDisabled ? null : (
        <ActionIcon
          variant="subtle"
          color="gray"
          c="inherit"
          size="lg"
          onClick={() => dispatch({ type: 'sidebar/toggle' })}
          aria-label={
            sidebar.isOpen ? t('shell.nav.hide', 'Hide navigation') : t('shell.nav.show', 'Show navigation')
          }
          aria-expanded={sidebar.isOpen}
          aria-controls={SIDEBAR_ID}
        >
          <SidebarIcon isOpen={sidebar.isOpen} size={22} />
        </ActionIcon>
      )}
      {hasManagedTenants ? <TenantSwitcher /> : <TenantName />}
      <Group gap="xs" ml="auto" wrap="nowrap">
        <LanguageMenu />
        <AppearanceMenu layout={layout} dispatch={dispatch} />
        <UserMenu />
      </Group>
    </header>
  );
}
