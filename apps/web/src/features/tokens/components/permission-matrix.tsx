import { Checkbox, Table, Text, VisuallyHidden } from '@mantine/core';
import { ACTIONS, type Action, MODULES, type Module, type Permission } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** Props of {@link PermissionMatrix}. */
export interface PermissionMatrixProps {
  /** What the signed-in administrator holds: nothing else can be ticked. */
  held: readonly Permission[];
  value: readonly Permission[];
  onChange: (value: Permission[]) => void;
  /** Read-only tokens keep only `:view`; the other actions are disabled. */
  isReadOnly: boolean;
  error?: string;
}

/** Translated names of the modules and actions of the matrix. */
export function usePermissionLabels() {
  const { t } = useTranslation();
  const modules: Record<Module, string> = {
    users: t('tokens.module.users', 'Users'),
    groups: t('tokens.module.groups', 'Groups'),
    tenant: t('tokens.module.tenant', 'Tenant'),
    events: t('tokens.module.events', 'Events'),
    dashboard: t('tokens.module.dashboard', 'Dashboard'),
    policies: t('tokens.module.policies', 'Policies'),
    devices: t('tokens.module.devices', 'Devices'),
    billing: t('tokens.module.billing', 'Billing'),
    roles: t('tokens.module.roles', 'Roles'),
  } as Record<Module, string>;
  const actions: Record<Action, string> = {
    view: t('tokens.action.view', 'View'),
    create: t('tokens.action.create', 'Add'),
    update: t('tokens.action.update', 'Edit'),
    delete: t('tokens.action.delete', 'Delete'),
  };
  return {
    module: (module: string) => modules[module as Module] ?? module,
    action: (action: string) => actions[action as Action] ?? action,
  };
}

/**
 * The module × action grid of a custom token scope. Only modules the administrator holds something of are
 * shown, and only what it holds can be ticked.
 */
export function PermissionMatrix({ held, value, onChange, isReadOnly, error }: PermissionMatrixProps) {
  const { t } = useTranslation();
  const labels = usePermissionLabels();
  const modules = MODULES.filter((module) => ACTIONS.some((action) => held.includes(`${module}:${action}`)));
  const toggle = (permission: Permission, isChecked: boolean) =>
    onChange(isChecked ? [...value, permission] : value.filter((p) => p !== permission));
  return (
    <div>
      <Table
        withTableBorder
        withColumnBorders
        striped
        verticalSpacing={4}
        aria-describedby="token-matrix-error"
      >
        <Table.Caption>{t('tokens.form.matrixCaption', 'Permissions of the token')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <VisuallyHidden>{t('tokens.form.module', 'Area')}</VisuallyHidden>
            </Table.Th>
            {ACTIONS.map((action) => (
              <Table.Th key={action} ta="center">
                {labels.action(action)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {modules.map((module) => (
            <Table.Tr key={module}>
              <Table.Th scope="row" fw={500}>
                {labels.module(module)}
              </Table.Th>
              {ACTIONS.map((action) => {
                const permission = `${module}:${action}` as Permission;
                const isHeld = held.includes(permission);
                const isBlocked = !isHeld || (isReadOnly && action !== 'view');
                return (
                  <Table.Td key={action} ta="center">
                    <Checkbox
                      aria-label={`${labels.module(module)}: ${labels.action(action)}`}
                      checked={value.includes(permission) && !isBlocked}
                      disabled={isBlocked}
                      onChange={(event) => toggle(permission, event.currentTarget.checked)}
                      styles={{ body: { justifyContent: 'center' } }}
                    />
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {error ? (
        <Text id="token-matrix-error" c="red" size="sm" mt={4} role="alert">
          {error}
        </Text>
      ) : null}
    </div>
  );
}
