import { Box, Checkbox, CheckIcon, Table, Text, VisuallyHidden } from '@mantine/core';
import { ACTIONS, type Action, ALL_PERMISSIONS, MODULES, type Permission } from '@palisade/contracts';
import { memo, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { actionLabels, cellLabel, moduleLabels } from './permission-labels';
import { columnOf, coverage, permissionOf, rowOf, setPermissions } from './permission-set';

/** Props of {@link PermissionMatrix}. */
export interface PermissionMatrixProps {
  /** What the table is about, e.g. "Permissions of Auditor": the table's caption. */
  caption: string;
  /** Shows the caption above the table (where nothing else names it); visually hidden by default. */
  isCaptionVisible?: boolean;
  value: readonly Permission[];
  /** Makes the matrix editable: labelled checkboxes plus "all" toggles per row, per column and overall. */
  onChange?: (next: Permission[]) => void;
  disabled?: boolean;
  /**
   * What may be granted (an API token gets at most what its creator holds): other cells cannot be ticked, and
   * modules with nothing grantable are left out. Everything by default.
   */
  grantable?: readonly Permission[];
  /** Only the view column can be ticked (a read-only token); the other cells show unticked. */
  isViewOnly?: boolean;
  /** A problem with the choice, shown under the table and tied to it for screen readers. */
  error?: string;
}

/**
 * The module × action matrix of permissions, for roles and API tokens alike. Read-only it shows a check mark per
 * granted cell (each with an accessible "allowed"/"not allowed" name); editable, every cell is a native
 * checkbox named like "Users: create", so it is reachable with Tab and toggled with Space, and the "all"
 * toggles change only what may be granted. Memoised: typing in a name field does not redraw its checkboxes.
 */
export const PermissionMatrix = memo(function PermissionMatrix({
  caption,
  isCaptionVisible = false,
  value,
  onChange,
  disabled = false,
  grantable = ALL_PERMISSIONS,
  isViewOnly = false,
  error,
}: PermissionMatrixProps) {
  const { t } = useTranslation();
  const errorId = useId();
  const modules = moduleLabels(t);
  const actions = actionLabels(t);
  const isEditable = onChange !== undefined;
  const canGrant = (permission: Permission, action: Action) =>
    grantable.includes(permission) && (!isViewOnly || action === 'view');
  const grantableOf = (permissions: readonly Permission[]) =>
    permissions.filter((permission) => canGrant(permission, permission.split(':')[1] as Action));
  const shownModules = MODULES.filter((module) => rowOf(module).some((p) => grantable.includes(p)));

  const groupBox = (permissions: readonly Permission[], label: string) => {
    const cells = grantableOf(permissions);
    const state = coverage(value, cells);
    return (
      <Checkbox
        aria-label={label}
        checked={cells.length > 0 && state === 'all'}
        indeterminate={state === 'some'}
        disabled={disabled || cells.length === 0}
        onChange={() => onChange?.(setPermissions(value, cells, state !== 'all'))}
      />
    );
  };

  return (
    <div>
      <Table.ScrollContainer minWidth={480}>
        <Table
          withTableBorder
          withColumnBorders
          striped
          verticalSpacing={6}
          fz="sm"
          aria-describedby={error ? errorId : undefined}
        >
          <caption style={isCaptionVisible ? { captionSide: 'top', textAlign: 'start' } : undefined}>
            {isCaptionVisible ? (
              <Text component="span" size="sm" fw={500}>
                {caption}
              </Text>
            ) : (
              <VisuallyHidden>{caption}</VisuallyHidden>
            )}
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
            {shownModules.map((module) => (
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
                  const isAllowed = canGrant(permission, action);
                  const isGranted = value.includes(permission) && isAllowed;
                  const label = cellLabel(t, modules[module], actions[action]);
                  return (
                    <Table.Td key={action} ta="center">
                      <Box display="flex" style={{ justifyContent: 'center' }}>
                        {isEditable ? (
                          <Checkbox
                            aria-label={label}
                            checked={isGranted}
                            disabled={disabled || !isAllowed}
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
      {error ? (
        <Text id={errorId} c="red" size="sm" mt={4} role="alert">
          {error}
        </Text>
      ) : null}
    </div>
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
