import {
  Accordion,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import type { CustomRole } from '@palisade/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionMatrix } from '../../../components/permissions/permission-matrix';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { builtInRoleNames } from '../../../lib/role-names';
import { useCreateRole } from '../api/create-role';
import { useDeleteRole } from '../api/delete-role';
import { useRoles } from '../api/get-roles';
import { useUpdateRole } from '../api/update-role';
import { DeleteRoleModal } from './delete-role-modal';
import { RoleEditor, type RoleFormValues } from './role-editor';

/** Which role the editor shows: a new one, or an existing one (read-only without `roles:update`). */
type EditorState = { isOpen: false } | { isOpen: true; role?: CustomRole; key: number };

/**
 * The "Roles" tab: the built-in roles with their permission matrices (read-only), and the tenant's custom roles
 * with create, edit and delete as the user's permissions allow.
 */
export function RolesPanel() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('roles:create');
  const canUpdate = useCan('roles:update');
  const canDelete = useCan('roles:delete');
  const rolesQuery = useRoles(tenant);
  const names = builtInRoleNames(t);

  const [openBuiltIns, setOpenBuiltIns] = useState<string[]>([]);
  const [editor, setEditor] = useState<EditorState>({ isOpen: false });
  const [toDelete, setToDelete] = useState<CustomRole | null>(null);
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const closeEditor = () => setEditor({ isOpen: false });

  const createMutation = useCreateRole(tenant, {
    onSuccess: (role) => {
      showSuccess(t('roles.create.done', 'Role {{name}} created.', { name: role.name }));
      closeEditor();
    },
  });
  const updateMutation = useUpdateRole(tenant, {
    onSuccess: (role) => {
      showSuccess(t('roles.edit.done', 'Role {{name}} saved.', { name: role.name }));
      closeEditor();
    },
  });
  const deleteMutation = useDeleteRole(tenant, {
    onSuccess: () => {
      showSuccess(t('roles.delete.done', 'Role {{name}} deleted.', { name: toDelete?.name ?? '' }));
      setConfirmOpen(false);
    },
  });

  const handleSubmit = (role: CustomRole | undefined) => (values: RoleFormValues) =>
    role ? updateMutation.mutateAsync({ id: role.id, body: values }) : createMutation.mutateAsync(values);

  if (rolesQuery.isPending) return <LoadingState label={t('roles.list.loading', 'Loading roles…')} />;
  if (rolesQuery.isError)
    return <ErrorState error={rolesQuery.error} onRetry={() => void rolesQuery.refetch()} />;
  const { builtIn, custom } = rolesQuery.data;

  const createButton = canCreate ? (
    <Button onClick={() => setEditor({ isOpen: true, key: Date.now() })}>
      {t('roles.list.create', 'Add role')}
    </Button>
  ) : null;

  return (
    <Stack gap="xl">
      <Stack gap="sm" component="section" aria-labelledby="custom-roles-heading">
        <Group justify="space-between" align="center">
          <Title order={2} size="h4" id="custom-roles-heading">
            {t('roles.list.customTitle', 'Custom roles')}
          </Title>
          {custom.length > 0 ? createButton : null}
        </Group>
        {custom.length === 0 ? (
          <EmptyState
            message={t('roles.list.customEmpty', 'No custom roles yet. Built-in roles are listed below.')}
            action={createButton}
          />
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table withTableBorder highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('roles.columns.name', 'Name')}</Table.Th>
                  <Table.Th scope="col">{t('roles.columns.description', 'Description')}</Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('roles.columns.permissions', 'Permissions')}
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('roles.columns.holders', 'Holders')}
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('roles.columns.actions', 'Actions')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {custom.map((role) => (
                  <Table.Tr key={role.id}>
                    <Table.Th scope="row" fw={500}>
                      {role.name}
                    </Table.Th>
                    <Table.Td>
                      <Text size="sm" c={role.description ? undefined : 'dimmed'}>
                        {role.description || '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">{role.permissions.length}</Table.Td>
                    <Table.Td ta="right">{role.assigned}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          aria-label={
                            canUpdate
                              ? t('roles.list.editRole', 'Edit {{name}}', { name: role.name })
                              : t('roles.list.viewRole', 'View {{name}}', { name: role.name })
                          }
                          onClick={() => setEditor({ isOpen: true, role, key: Date.now() })}
                        >
                          {canUpdate ? t('roles.list.edit', 'Edit') : t('roles.list.view', 'View')}
                        </Button>
                        {canDelete ? (
                          <DeleteButton
                            role={role}
                            onDelete={() => {
                              setToDelete(role);
                              setConfirmOpen(true);
                            }}
                          />
                        ) : null}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="built-in-roles-heading">
        <Title order={2} size="h4" id="built-in-roles-heading">
          {t('roles.list.builtInTitle', 'Built-in roles')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('roles.list.builtInHint', 'Built-in roles cannot be changed. Open one to see what it allows.')}
        </Text>
        <Accordion variant="separated" multiple value={openBuiltIns} onChange={setOpenBuiltIns}>
          {builtIn.map((role) => (
            <Accordion.Item key={role.name} value={role.name}>
              <Accordion.Control>
                <Group gap="sm">
                  <Text fw={500}>{names[role.name]}</Text>
                  <Badge variant="light" color="gray" radius="sm">
                    {t('roles.list.permissionCount', {
                      count: role.permissions.length,
                      defaultValue_one: '{{count}} permission',
                      defaultValue_other: '{{count}} permissions',
                    })}
                  </Badge>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                {/* Only open roles render their matrix: seven hidden tables would only cost time. */}
                {openBuiltIns.includes(role.name) ? (
                  <PermissionMatrix
                    caption={t('roles.list.matrixOf', 'Permissions of {{name}}', { name: names[role.name] })}
                    value={role.permissions}
                  />
                ) : null}
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </Stack>

      {editor.isOpen && (canUpdate || !editor.role) ? (
        <RoleEditor
          key={editor.key}
          opened
          role={editor.role}
          onSubmit={handleSubmit(editor.role)}
          onClose={closeEditor}
        />
      ) : null}
      {editor.isOpen && editor.role && !canUpdate ? (
        <RoleViewer role={editor.role} onClose={closeEditor} />
      ) : null}
      <DeleteRoleModal
        opened={isConfirmOpen}
        name={toDelete?.name ?? ''}
        isDeleting={deleteMutation.isPending}
        onClose={() => setConfirmOpen(false)}
        onConfirm={() => toDelete && deleteMutation.mutate(toDelete.id)}
      />
    </Stack>
  );
}

/**
 * Delete of one custom role. A role someone holds cannot be deleted: the button then stays focusable but
 * inert, and says why in a tooltip (on hover and on focus) and in its description.
 */
function DeleteButton({ role, onDelete }: { role: CustomRole; onDelete: () => void }) {
  const { t } = useTranslation();
  const reasonId = useId();
  const label = t('roles.list.deleteRole', 'Delete {{name}}', { name: role.name });
  if (role.assigned === 0) {
    return (
      <Button size="compact-sm" variant="subtle" color="red" aria-label={label} onClick={onDelete}>
        {t('roles.list.delete', 'Delete')}
      </Button>
    );
  }
  const reason = t('roles.list.inUse', {
    count: role.assigned,
    defaultValue_one: 'One administrator holds this role. Give them another role first.',
    defaultValue_other: '{{count}} administrators hold this role. Give them another role first.',
  });
  return (
    <>
      <Tooltip label={reason} events={{ hover: true, focus: true, touch: true }} multiline w={260} withArrow>
        <Button
          size="compact-sm"
          variant="subtle"
          color="red"
          aria-label={label}
          aria-describedby={reasonId}
          aria-disabled
          data-disabled
          onClick={(event) => event.preventDefault()}
        >
          {t('roles.list.delete', 'Delete')}
        </Button>
      </Tooltip>
      <VisuallyHidden id={reasonId}>{reason}</VisuallyHidden>
    </>
  );
}

/** A custom role shown read-only, for users who may view roles but not change them. */
function RoleViewer({ role, onClose }: { role: CustomRole; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={role.name} size="xl" centered>
      <Stack gap="md">
        {role.description ? <Text size="sm">{role.description}</Text> : null}
        <PermissionMatrix
          caption={t('roles.list.matrixOf', 'Permissions of {{name}}', { name: role.name })}
          value={role.permissions}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('roles.list.close', 'Close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
