import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  API_TOKEN_DEFAULT_EXPIRY_DAYS,
  ApiTokenInput,
  type CreatedApiToken,
  needsReauthentication,
  type Permission,
  ROLE_PERMISSIONS,
  TOKEN_ROLES,
  type TokenRole,
} from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { PermissionMatrix } from '../../../components/permissions/permission-matrix';
import {
  EMPTY_REAUTH,
  ReauthFields,
  type ReauthValues,
  reauthError,
  reauthInput,
} from '../../../components/ui/reauth-fields';
import { useSession } from '../../../lib/auth';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError } from '../../../lib/mutation-toast';
import { useCreateToken } from '../api/create-token';

/** Expiry choices, in days; `never` is a deliberate choice, not the default. */
const EXPIRY_CHOICES = ['7', '30', '90', '180', '365', 'never'] as const;

interface TokenFormValues {
  name: string;
  scope: 'role' | 'custom';
  role: TokenRole | null;
  permissions: Permission[];
  isReadOnly: boolean;
  expiry: (typeof EXPIRY_CHOICES)[number];
  reauth: ReauthValues;
}

/** Props of {@link CreateTokenModal}. */
export interface CreateTokenModalProps {
  opened: boolean;
  onClose: () => void;
  /** The session's own tenant (the cache key of the list). */
  tenant: string;
  /** What the signed-in administrator holds. */
  held: readonly Permission[];
}

/** Translated names of the built-in roles a token can take. */
function useRoleLabels(): Record<TokenRole, string> {
  const { t } = useTranslation();
  return {
    owner: t('tokens.role.owner', 'Owner'),
    admin: t('tokens.role.admin', 'Administrator'),
    network_admin: t('tokens.role.network_admin', 'Network administrator'),
    security_analyst: t('tokens.role.security_analyst', 'Security analyst'),
    helpdesk: t('tokens.role.helpdesk', 'Helpdesk'),
    auditor: t('tokens.role.auditor', 'Auditor (read-only)'),
    billing_admin: t('tokens.role.billing_admin', 'Billing administrator'),
    partner_admin: t('tokens.role.partner_admin', 'Partner administrator'),
    platform_admin: t('tokens.role.platform_admin', 'Platform administrator'),
  };
}

const expiryDays = (values: TokenFormValues) => (values.expiry === 'never' ? null : Number(values.expiry));

/** The form values as the API takes them. */
function toInput(values: TokenFormValues): z.input<typeof ApiTokenInput> {
  return {
    name: values.name,
    ...(values.scope === 'role' && values.role
      ? { role: values.role }
      : {
          permissions: values.isReadOnly
            ? values.permissions.filter((p) => p.endsWith(':view'))
            : values.permissions,
        }),
    isReadOnly: values.isReadOnly,
    expiresInDays: expiryDays(values),
    ...(needsReauthentication(expiryDays(values)) ? { reauth: reauthInput(values.reauth) } : {}),
  };
}

/** The new token's secret, shown once, with a copy button and a plain warning. */
function SecretStep({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Alert color="orange" title={t('tokens.secret.title', 'Copy the token now')}>
        {t(
          'tokens.secret.warning',
          'This is the only time the token is shown. Store it somewhere safe: if it is lost, revoke it and create a new one.',
        )}
      </Alert>
      <Text size="sm" id="token-secret-label">
        {t('tokens.secret.label', 'Token “{{name}}”', { name: token.name })}
      </Text>
      <Code
        block
        aria-labelledby="token-secret-label"
        data-testid="token-secret"
        style={{ wordBreak: 'break-all' }}
      >
        {token.secret}
      </Code>
      <Text size="sm" c="dimmed">
        {t('tokens.secret.usage', 'Send it as the header Authorization: Bearer <token>.')}
      </Text>
      <Group justify="flex-end" gap="sm">
        <CopyButton value={token.secret}>
          {({ copied, copy }) => (
            <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
              {copied ? t('tokens.secret.copied', 'Copied') : t('tokens.secret.copy', 'Copy token')}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>{t('tokens.secret.done', 'I have stored it')}</Button>
      </Group>
    </Stack>
  );
}

/**
 * Creates an API token: name, a role preset or a custom module × action scope limited to what the administrator
 * holds, read-only, expiry; then shows the secret once. Closing forgets the secret.
 */
export function CreateTokenModal({ opened, onClose, tenant, held }: CreateTokenModalProps) {
  const { t } = useTranslation();
  const roleLabels = useRoleLabels();
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const { session } = useSession();
  const roles = TOKEN_ROLES.filter((role) => ROLE_PERMISSIONS[role].every((p) => held.includes(p)));
  const form = useForm<TokenFormValues>({
    mode: 'controlled',
    initialValues: {
      name: '',
      scope: 'role',
      role: roles.includes('auditor') ? 'auditor' : (roles[0] ?? null),
      permissions: [],
      isReadOnly: false,
      expiry: String(API_TOKEN_DEFAULT_EXPIRY_DAYS) as TokenFormValues['expiry'],
      reauth: EMPTY_REAUTH,
    },
    // The contract's own schema, on the values as they will be sent; a missing role shows on the role field.
    validate: (values) => {
      const errors = zodValidator(ApiTokenInput, t, toInput)(values);
      if (values.scope === 'role' && errors.permissions) {
        errors.role = errors.permissions;
        delete errors.permissions;
      }
      if (needsReauthentication(expiryDays(values))) {
        const missing = reauthError(values.reauth, t);
        if (missing) errors['reauth.password'] = missing;
      }
      return errors;
    },
  });
  const create = useCreateToken(tenant, {
    onSuccess: (token) => setCreated(token),
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, t);
      // A role refused on the server is shown on the field the user chose.
      if (fieldErrors.permissions && form.getValues().scope === 'role')
        fieldErrors.role = fieldErrors.permissions;
      if (fieldErrors.reauth) {
        fieldErrors['reauth.password'] = fieldErrors.reauth;
        delete fieldErrors.reauth;
      }
      if (Object.keys(fieldErrors).length) form.setErrors(fieldErrors);
      else showMutationError(t, error);
    },
  });

  const handleClose = () => {
    if (create.isPending) return;
    setCreated(null);
    form.reset();
    create.reset();
    onClose();
  };

  const values = form.getValues();
  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={created ? t('tokens.secret.heading', 'Token created') : t('tokens.form.title', 'Add API token')}
      size="lg"
      centered
    >
      {created ? (
        <SecretStep token={created} onDone={handleClose} />
      ) : (
        <form onSubmit={form.onSubmit((v) => create.mutate(toInput(v)))} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('tokens.form.name', 'Name')}
              description={t('tokens.form.nameHint', 'What the token is for, e.g. “Deploy bot”.')}
              required
              maxLength={100}
              data-autofocus
              {...form.getInputProps('name')}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="token-scope-label">
                {t('tokens.form.scope', 'Scope')}
              </Text>
              <SegmentedControl
                aria-labelledby="token-scope-label"
                data={[
                  { value: 'role', label: t('tokens.form.scopeRole', 'Role preset') },
                  { value: 'custom', label: t('tokens.form.scopeCustom', 'Custom permissions') },
                ]}
                {...form.getInputProps('scope')}
              />
            </Stack>
            {values.scope === 'role' ? (
              <Select
                label={t('tokens.form.role', 'Role')}
                description={t('tokens.form.roleHint', 'The token gets the permissions of this role.')}
                data={roles.map((role) => ({ value: role, label: roleLabels[role] }))}
                allowDeselect={false}
                {...form.getInputProps('role')}
              />
            ) : (
              <PermissionMatrix
                caption={t('tokens.form.matrixCaption', 'Permissions of the token')}
                isCaptionVisible
                grantable={held}
                isViewOnly={values.isReadOnly}
                value={values.permissions}
                onChange={(next) => form.setFieldValue('permissions', next)}
                error={form.errors.permissions as string | undefined}
              />
            )}
            <Switch
              label={t('tokens.form.readOnly', 'Read-only')}
              description={t(
                'tokens.form.readOnlyHint',
                'Only view permissions are kept; the token cannot change anything.',
              )}
              {...form.getInputProps('isReadOnly', { type: 'checkbox' })}
            />
            <Select
              label={t('tokens.form.expiry', 'Expires')}
              data={EXPIRY_CHOICES.map((choice) => ({
                value: choice,
                label:
                  choice === 'never'
                    ? t('tokens.form.never', 'Never')
                    : t('tokens.form.days', { count: Number(choice), defaultValue: 'In {{count}} days' }),
              }))}
              allowDeselect={false}
              {...form.getInputProps('expiry')}
            />
            {values.expiry === 'never' ? (
              <Text size="sm" c="orange">
                {t('tokens.form.neverWarning', 'A token that never expires stays valid until it is revoked.')}
              </Text>
            ) : null}
            {needsReauthentication(expiryDays(values)) ? (
              <ReauthFields
                password={form.getInputProps('reauth.password')}
                code={form.getInputProps('reauth.code')}
                hasTotp={session?.totpEnabled ?? false}
              />
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={handleClose} disabled={create.isPending}>
                {t('tokens.form.cancel', 'Cancel')}
              </Button>
              <Button type="submit" loading={create.isPending}>
                {t('tokens.form.submit', 'Add token')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
