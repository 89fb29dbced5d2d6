import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { RolesPanel } from '../components/roles-panel';
import {
  parseRolesState,
  ROLE_TABS,
  type RolesScreenState,
  type RoleTab,
  toRolesSearchParams,
} from '../utils/assignment-params';

/** Props of the roles screen. */
export interface RolesScreenProps {
  /**
   * The "Assignments" tab: who holds which role. The administrators list (another feature) is composed in by
   * `app/screens/roles-page.tsx`, with the list's search and page kept in the address with the tab.
   */
  renderAssignments?: (
    state: RolesScreenState,
    onStateChange: (patch: Partial<RolesScreenState>, options?: { replace?: boolean }) => void,
  ) => ReactNode;
}

/**
 * `/users/roles`: the tenant's roles (built-in and custom) and who holds which, on two tabs whose choice is in
 * the address (`?tab=roles|assignments`), so links and Back restore it.
 */
export function Component({ renderAssignments }: RolesScreenProps = {}) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const state = parseRolesState(searchParams);

  const setState = (patch: Partial<RolesScreenState>, options?: { replace?: boolean }) =>
    setSearchParams((current) => toRolesSearchParams({ ...parseRolesState(current), ...patch }), options);

  return (
    <>
      <PageHeader
        title={t('roles.title', 'Roles')}
        description={t(
          'roles.description',
          'What administrators may do: built-in roles, your own roles, and who holds which.',
        )}
      />
      <Tabs
        value={state.tab}
        onChange={(tab) => {
          if (tab && (ROLE_TABS as readonly string[]).includes(tab)) setState({ tab: tab as RoleTab });
        }}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="roles">{t('roles.tabs.roles', 'Roles')}</Tabs.Tab>
          <Tabs.Tab value="assignments">{t('roles.tabs.assignments', 'Assignments')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="roles">
          <RolesPanel />
        </Tabs.Panel>
        <Tabs.Panel value="assignments">{renderAssignments?.(state, setState)}</Tabs.Panel>
      </Tabs>
    </>
  );
}
