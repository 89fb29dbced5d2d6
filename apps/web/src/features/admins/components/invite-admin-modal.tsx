import { Button, Group, Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type CustomRole,
  type InviteAdminInput,
  InviteAdminInput as InviteSchema,
  type Role,
  TENANT_ADMIN_ROLES,
} from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { builtInRoleNames } from '../../../lib/role-names';
import { useInviteAdmin } from '../api/invite-admin';
import { ownerRuleToast } from '../api/owner-rule';

/** Roles that may invite an owner (the server refuses everyone else). */
export const OWNER_MAKERS: readonly Role[] = ['owner', 'partner_admin', 'platform_admin'];

interface InviteFormValues {
  email: string;
  firstname: string;
  lastname: string;
  /** `role:<built-in>` or `custom:<id>`; empty until chosen. */
  choice: string;
}

/** The body of an invitation: exactly one of `role` and `customRoleId` is set (none while nothing is chosen). */
export function toInviteInput(values: InviteFormValues): InviteAdminInput {
  const split = values.choice.indexOf(':');
  const kind = values.choice.slice(0, split);
  const value = values.choice.slice(split + 1);
  return {
    email: values.email.trim(),
    firstname: values.firstname.trim(),
    lastname: values.lastname.trim(),
    role: kind === 'role' ? (value as InviteAdminInput['role']) : null,
    customRoleId: kind === 'custom' ? value : null,
  };
}

/** Role problems (none chosen, an unknown custom role) show on the one role select. */
function onRoleField(errors: Record<string, string>): Record<string, string> {
  const { role, customRoleId, ...rest } = errors;
  const message = role ?? customRoleId;
  return message ? { ...rest, choice: message } : rest;
}

/** Props of {@link InviteAdminModal}. */
export interface InviteAdminModalProps {
  opened: boolean;
  onClose: () => void;
  tenant: string;
  /** The tenant's custom roles, offered after the built-in ones. */
  customRoles: readonly CustomRole[];
  /** Whether the signed-in user may invite an owner. */
  mayInviteOwner: boolean;
}

/** Invites an administrator by e-mail: address, name and a built-in or custom role. */
export function InviteAdminModal({
  opened,
  onClose,
  tenant,
  customRoles,
  mayInviteOwner,
}: InviteAdminModalProps) {
  const { t } = useTranslation();
  const names = builtInRoleNames(t);
  const form = useForm<InviteFormValues>({
    mode: 'controlled',
    initialValues: { email: '', firstname: '', lastname: '', choice: '' },
    validate: (values) => {
      const errors = onRoleField(zodValidator(InviteSchema, t, toInviteInput)(values));
      // The contract's role rule is a refinement, which zod skips while other fields fail; say it at once.
      if (!values.choice && !errors.choice) {
        errors.choice = t('validation.roleChoice', 'Choose a built-in role or a custom role.');
      }
      return errors;
    },
  });
  const handleClose = () => {
    if (invite.isPending) return;
    form.reset();
    invite.reset();
    onClose();
  };
  const invite = useInviteAdmin(tenant, {
    onSuccess: (admin) => {
      showSuccess(t('admins.invite.done', 'Invitation sent to {{email}}.', { email: admin.username }));
      form.reset();
      onClose();
    },
    onError: (error) => {
      const fieldErrors = onRoleField(serverFieldErrors(error, t));
      if (Object.keys(fieldErrors).length) form.setErrors(fieldErrors);
      else
        showMutationError(
          t,
          error,
          ownerRuleToast(t, t('admins.invite.failed', 'The invitation was not sent')),
        );
    },
  });

  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={t('admins.invite.title', 'Invite administrator')}
      centered
    >
      <form onSubmit={form.onSubmit((values) => invite.mutate(toInviteInput(values)))} noValidate>
        <Stack gap="md">
          <TextInput
            type="email"
            label={t('admins.invite.email', 'E-mail')}
            description={t('admins.invite.emailHint', 'The invitation link is sent to this address.')}
            required
            autoComplete="off"
            maxLength={254}
            data-autofocus
            {...form.getInputProps('email')}
          />
          <Group grow align="flex-start">
            <TextInput
              label={t('admins.invite.firstname', 'First name')}
              required
              maxLength={100}
              {...form.getInputProps('firstname')}
            />
            <TextInput
              label={t('admins.invite.lastname', 'Last name')}
              required
              maxLength={100}
              {...form.getInputProps('lastname')}
            />
          </Group>
          <NativeSelect
            label={t('admins.invite.role', 'Role')}
            description={t('admins.invite.roleHint', 'What the new administrator may do.')}
            required
            {...form.getInputProps('choice')}
          >
            <option value="" disabled>
              {t('admins.invite.rolePlaceholder', 'Choose a role')}
            </option>
            <optgroup label={t('admins.invite.builtInGroup', 'Built-in roles')}>
              {TENANT_ADMIN_ROLES.map((role) => (
                <option key={role} value={`role:${role}`} disabled={role === 'owner' && !mayInviteOwner}>
                  {names[role]}
                </option>
              ))}
            </optgroup>
            {customRoles.length > 0 ? (
              <optgroup label={t('admins.invite.customGroup', 'Custom roles')}>
                {customRoles.map((role) => (
                  <option key={role.id} value={`custom:${role.id}`}>
                    {role.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </NativeSelect>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={handleClose} disabled={invite.isPending}>
              {t('admins.invite.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={invite.isPending}>
              {t('admins.invite.submit', 'Send invitation')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
