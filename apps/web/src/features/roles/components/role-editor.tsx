import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { type CustomRole, CustomRoleInput, type Permission } from '@palisade/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionMatrix } from '../../../components/permissions/permission-matrix';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError } from '../../../lib/mutation-toast';

/** What the editor edits. */
export interface RoleFormValues {
  name: string;
  description: string;
  permissions: Permission[];
}

const EMPTY_ROLE: RoleFormValues = { name: '', description: '', permissions: [] };

/** Props of {@link RoleEditor}. */
export interface RoleEditorProps {
  opened: boolean;
  /** The role to edit; a new role when absent. */
  role?: CustomRole;
  /** Sends the input; a rejected promise with server `details` puts them on the fields. */
  onSubmit: (input: RoleFormValues) => Promise<unknown>;
  onClose: () => void;
}

/**
 * Creates or edits a custom role: name, description and the permission matrix. Validates with the contract's
 * `CustomRoleInput` and shows the server's field errors (such as a taken name) on the fields. Mount it with a
 * `key` per role so each opening starts from that role's values.
 */
export function RoleEditor({ opened, role, onSubmit, onClose }: RoleEditorProps) {
  const { t } = useTranslation();
  const form = useForm<RoleFormValues>({
    mode: 'controlled',
    initialValues: role
      ? { name: role.name, description: role.description, permissions: role.permissions }
      : EMPTY_ROLE,
    validate: zodValidator(CustomRoleInput, t),
  });

  const { setFieldValue } = form;
  const handlePermissionsChange = useCallback(
    (next: Permission[]) => setFieldValue('permissions', next),
    [setFieldValue],
  );

  const focusFirstError = (errors: FormErrors) => {
    if (errors.name !== undefined) form.getInputNode('name')?.focus();
    else if (errors.description !== undefined) form.getInputNode('description')?.focus();
  };

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      await onSubmit({ ...values, name: values.name.trim(), description: values.description.trim() });
    } catch (error) {
      const errors = serverFieldErrors(error, t);
      const fieldErrors = Object.fromEntries(
        Object.entries(errors).map(([field, message]) => [
          field.startsWith('permissions') ? 'permissions' : field,
          message,
        ]),
      );
      if (Object.keys(fieldErrors).length > 0) {
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors);
      } else {
        showMutationError(t, error);
      }
    }
  }, focusFirstError);

  const title = role
    ? t('roles.editor.editTitle', 'Edit role {{name}}', { name: role.name })
    : t('roles.editor.createTitle', 'Add role');

  return (
    <Modal opened={opened} onClose={form.submitting ? () => {} : onClose} title={title} size="xl" centered>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('roles.editor.name', 'Name')}
            required
            autoComplete="off"
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Textarea
            label={t('roles.editor.description', 'Description')}
            rows={2}
            {...form.getInputProps('description')}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('roles.editor.permissions', 'Permissions')}
            </Text>
            <Text size="xs" c="dimmed">
              {t(
                'roles.editor.permissionsHint',
                'Tick what holders of this role may do. The “All” boxes tick a whole row or column.',
              )}
            </Text>
          </Stack>
          <PermissionMatrix
            caption={t('roles.editor.permissions', 'Permissions')}
            value={form.values.permissions}
            onChange={handlePermissionsChange}
            disabled={form.submitting}
          />
          {form.errors.permissions ? (
            <Alert color="red" variant="light" role="alert">
              {form.errors.permissions}
            </Alert>
          ) : null}
          {form.values.permissions.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('roles.editor.noPermissions', 'Holders of a role without permissions can only sign in.')}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={form.submitting}>
              {t('roles.editor.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={form.submitting}>
              {role ? t('roles.editor.save', 'Save') : t('roles.editor.create', 'Add role')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
