import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type CreateManagedTenant,
  CreateManagedTenant as CreateSchema,
  ERRORS,
  type ManagedTenant,
} from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useCreateManagedTenant } from '../api/create-managed-tenant';

/** The form's values: the contract's body, every field a string (field paths match the server's details). */
type CreateTenantValues = CreateManagedTenant;

const EMPTY: CreateTenantValues = {
  name: '',
  displayName: '',
  owner: { email: '', firstname: '', lastname: '' },
};

/** The body of the request: trimmed, the name in lower case. */
export function toCreateInput(values: CreateTenantValues): CreateManagedTenant {
  return {
    name: values.name.trim().toLowerCase(),
    displayName: values.displayName.trim(),
    owner: {
      email: values.owner.email.trim(),
      firstname: values.owner.firstname.trim(),
      lastname: values.owner.lastname.trim(),
    },
  };
}

/** Props of {@link CreateTenantModal}. */
export interface CreateTenantModalProps {
  opened: boolean;
  onClose: () => void;
  /** The console's own tenant (the partner's or the platform's). */
  tenant: string;
  /** After the tenant is created (the session is refreshed, so the tenant switcher offers it). */
  onCreated?: (created: ManagedTenant) => void;
}

/**
 * Creates a customer tenant: its name (a lowercase slug, used in addresses), its display name and its owner, who
 * is invited by mail. The server's word on a field (a taken name, a taken e-mail) shows on that field.
 */
export function CreateTenantModal({ opened, onClose, tenant, onCreated }: CreateTenantModalProps) {
  const { t } = useTranslation();
  const form = useForm<CreateTenantValues>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: zodValidator(CreateSchema, t, toCreateInput),
  });
  const create = useCreateManagedTenant(tenant, {
    onSuccess: (created) => {
      showSuccess(
        t('partners.create.done', '{{name}} was created. Its owner was invited by e-mail to {{email}}.', {
          name: created.displayName,
          email: form.getValues().owner.email.trim(),
        }),
      );
      form.reset();
      onClose();
      onCreated?.(created);
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, t);
      // A conflict without details still names its field.
      if (error instanceof ApiError && !Object.keys(fieldErrors).length) {
        if (error.errcode === ERRORS.tenant_exists.errcode)
          fieldErrors.name = t('validation.tenantTaken', 'This workspace name is taken.');
        if (error.errcode === ERRORS.user_exists.errcode)
          fieldErrors['owner.email'] = t(
            'validation.emailTaken',
            'An account with this e-mail already exists.',
          );
      }
      if (Object.keys(fieldErrors).length) form.setErrors(fieldErrors);
      else
        showMutationError(t, error, {
          title: t('partners.create.failed', 'The tenant was not created'),
          fieldsOnForm: true,
        });
    },
  });
  const handleClose = () => {
    if (create.isPending) return;
    form.reset();
    create.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={handleClose} title={t('partners.create.title', 'Create tenant')} centered>
      <form onSubmit={form.onSubmit((values) => create.mutate(toCreateInput(values)))} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('partners.create.displayName', 'Display name')}
            required
            maxLength={100}
            data-autofocus
            {...form.getInputProps('displayName')}
          />
          <TextInput
            label={t('partners.create.name', 'Tenant name')}
            description={t(
              'partners.create.nameHint',
              'Lowercase letters, digits and hyphens; used in addresses and the sign-in page. It cannot be changed later.',
            )}
            required
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            {...form.getInputProps('name')}
            onChange={(event) => form.setFieldValue('name', event.currentTarget.value.toLowerCase())}
          />
          <TextInput
            type="email"
            label={t('partners.create.ownerEmail', 'Owner e-mail')}
            description={t(
              'partners.create.ownerEmailHint',
              'The owner is invited by e-mail to choose a password.',
            )}
            required
            autoComplete="off"
            maxLength={254}
            {...form.getInputProps('owner.email')}
          />
          <Group grow align="flex-start">
            <TextInput
              label={t('partners.create.ownerFirstname', 'First name')}
              required
              maxLength={100}
              {...form.getInputProps('owner.firstname')}
            />
            <TextInput
              label={t('partners.create.ownerLastname', 'Last name')}
              required
              maxLength={100}
              {...form.getInputProps('owner.lastname')}
            />
          </Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={handleClose} disabled={create.isPending}>
              {t('common.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('partners.create.submit', 'Create and invite owner')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
