import { Box, Checkbox, CheckIcon, Table, Text, VisuallyHidden } from '@mantine/core';
import { ACTIONS, ALL_PERMISSIONS, MODULES, type Permission } from '@palisade/contracts';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { columnOf, coverage, permissionOf, rowOf, setPermissions } from '../utils/permissions';
import { actionLabels, cellLabel, moduleLabels } from './permission-labels';

/** Props of {@link PermissionMatrix}. */
export interface PermissionMatrixProps {
  /** What the table is about, e.g. "Permissions of Auditor"; the table's caption (visually hidden). */
  caption: string;
  value: readonly Permission[];
  /** Makes the matrix editable: labelled checkboxes plus "all" toggles per row, per column and overall. */
  onChange?: (next: Permission[]) => void;
  disabled?: boolean;
}

/**
 * The module × action matrix of permissions. Read-only it shows a check mark per granted cell (each with an
 * accessible "allowed"/"not allowed" name); editable, every cell is a native checkbox named like
 * "Users: create", so it is reachable with Tab and toggled with Space. Memoised: typing in the role's name
 * does not redraw its 49 checkboxes.
 */
export const PermissionMatrix = memo(function PermissionMatrix({
  caption,
  value,
  onChange,
  disabled = false,
}: PermissionMatrixProps) {
  const { t } = useTranslation();
  const modules = moduleLabels(t);
  const actions = actionLabels(t);
  const isEditable = onChange !== undefined;

  const toggle = (permissions: readonly Permission[]) => {
    const isOn = coverage(value, permissions) !== 'all';
    onChange?.(setPermissions(value, permissions, isOn));
  };
  const groupBox = (permissions: readonly Permission[], label: string) => {
    const state = coverage(value, permissions);
    return (
      <Checkbox
        aria-label={label}
        checked={state === 'all'}
        indeterminate={state === 'some'}
        disabled={disabled}
        onChange={() => toggle(permissions)}
      />
    );
  };

  return (
    <Table.ScrollContainer minWidth={480}>
      <Table withTableBorder withColumnBorders striped verticalSpacing={6} fz="sm">
        <caption>
          <VisuallyHidden>{caption}</VisuallyHidden>
        </caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('roles.matrix.module', 'Module')}</Table.Th>
            {isEditable ? (
              <Table.Th scope="col" ta="center">
                <Box display="flex" style={{ flexDirection: 'column', alignItems: 'center', gap: 4 }}>
                  <Text size="xs" fw={600}>
                    {t('roles.matrix.allHeading', 'All')}
                  </Text>
                  {groupBox(ALL_PERMISSIONS, t('roles.matrix.all', 'All permissions'))}
                </Box>
              </Table.Th>
            ) : null}
            {ACTIONS.map((action) => (
              <Table.Th key={action} scope="col" ta="center">
                <Box display="flex" style={{ flexDirection: 'column', alignItems: 'center', gap: 4 }}>
                  <Text size="xs" fw={600}>
                    {actions[action]}
                  </Text>
                  {isEditable
                    ? groupBox(
                        columnOf(action),
                        t('roles.matrix.columnAll', 'All modules: {{action}}', {
                          action: actions[action].toLocaleLowerCase(),
                        }),
                      )
                    : null}
                </Box>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {MODULES.map((module) => (
            <Table.Tr key={module}>
              <Table.Th scope="row" fw={500}>
                {modules[module]}
              </Table.Th>
              {isEditable ? (
                <Table.Td ta="center">
                  <Box display="flex" style={{ justifyContent: 'center' }}>
                    {groupBox(
                      rowOf(module),
                      t('roles.matrix.rowAll', '{{module}}: all actions', { module: modules[module] }),
                    )}
                  </Box>
                </Table.Td>
              ) : null}
              {ACTIONS.map((action) => {
                const permission = permissionOf(module, action);
                const isGranted = value.includes(permission);
                const label = cellLabel(t, modules[module], actions[action]);
                return (
                  <Table.Td key={action} ta="center">
                    <Box display="flex" style={{ justifyContent: 'center' }}>
                      {isEditable ? (
                        <Checkbox
                          aria-label={label}
                          checked={isGranted}
                          disabled={disabled}
                          onChange={(event) =>
                            onChange(setPermissions(value, [permission], event.currentTarget.checked))
                          }
                        />
                      ) : (
                        <GrantMark isGranted={isGranted} label={label} />
                      )}
                    </Box>
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
});

/** A read-only cell: a check mark when granted, a faint dash otherwise, named for screen readers. */
function GrantMark({ isGranted, label }: { isGranted: boolean; label: string }) {
  const { t } = useTranslation();
  const text = isGranted
    ? t('roles.matrix.allowed', '{{permission}}: allowed', { permission: label })
    : t('roles.matrix.notAllowed', '{{permission}}: not allowed', { permission: label });
  return (
    <Box
      component="span"
      role="img"
      aria-label={text}
      title={text}
      c={isGranted ? 'green' : 'dimmed'}
      style={{ display: 'inline-flex' }}
    >
      {isGranted ? <CheckIcon size={14} aria-hidden /> : <span aria-hidden>–</span>}
    </Box>
  );
}
