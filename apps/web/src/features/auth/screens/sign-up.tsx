import { Anchor, Button, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { SignUpInput } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { serverFieldErrors, translateKey, zodValidator } from '../../../lib/form-errors';
import { useSignUp } from '../api/sign-up';
import { AuthCard } from '../components/auth-card';
import { AuthError } from '../components/auth-error';

/** The sign-up form: the contract's input plus the password typed twice. */
export interface SignUpFormValues {
  organisation: string;
  tenant: string;
  firstname: string;
  lastname: string;
  email: string;
  password: string;
  confirmPassword: string;
}

const FIELDS = [
  'organisation',
  'tenant',
  'firstname',
  'lastname',
  'email',
  'password',
  'confirmPassword',
] as const;

/**
 * A workspace name proposed from the organisation name: lowercase letters, digits and single hyphens, at most
 * 40 characters, no hyphen at either end (the contract's `TenantName`). "Acme GmbH & Co." → "acme-gmbh-co".
 */
export function suggestWorkspaceName(organisation: string): string {
  return organisation
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

/** Validates the form: the contract's rules, then the two passwords must match. */
export function validateSignUp(t: TFunction) {
  const validateInput = zodValidator<SignUpFormValues>(SignUpInput, t);
  return (values: SignUpFormValues): FormErrors => {
    const errors = validateInput(values);
    if (values.confirmPassword === '') errors.confirmPassword = translateKey(t, 'validation.required');
    else if (values.confirmPassword !== values.password) {
      errors.confirmPassword = t('validation.passwordsDiffer', 'The passwords do not match.');
    }
    return errors;
  };
}

/** `/sign-up`: a new organisation with its workspace and owner; then the "check your inbox" page. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signUp = useSignUp();

  const form = useForm<SignUpFormValues>({
    mode: 'controlled',
    initialValues: {
      organisation: '',
      tenant: '',
      firstname: '',
      lastname: '',
      email: '',
      password: '',
      confirmPassword: '',
    },
    validate: validateSignUp(t),
    // The workspace name follows the organisation name until it is edited by hand.
    onValuesChange: (values, previous) => {
      const isFollowing = previous.tenant === suggestWorkspaceName(previous.organisation);
      if (values.organisation !== previous.organisation && isFollowing && values.tenant === previous.tenant) {
        form.setFieldValue('tenant', suggestWorkspaceName(values.organisation));
      }
    },
  });

  const handleSubmit = form.onSubmit(
    async ({ confirmPassword: _confirm, ...values }) => {
      try {
        const result = await signUp.mutateAsync(SignUpInput.parse(values));
        // The status id lets "check your inbox" see the address verified, from any device, by itself.
        navigate('/email-verification', { state: { email: result.email, transid: result.transid } });
      } catch (error) {
        const errors = serverFieldErrors(error, t);
        form.setErrors(errors);
        const first = FIELDS.find((field) => errors[field] !== undefined);
        if (first) form.getInputNode(first)?.focus();
      }
    },
    (errors) => {
      const first = FIELDS.find((field) => errors[field] !== undefined);
      if (first) form.getInputNode(first)?.focus();
    },
  );

  // Conflicts and validation failures show on their fields; the alert is for everything else.
  const isOnFields = signUp.error instanceof ApiError && Boolean(signUp.error.details?.length);
  return (
    <AuthCard
      title={t('auth.signUp.title', 'Create your account')}
      description={t('auth.signUp.description', 'Set up a Palisade workspace for your organisation.')}
      footer={
        <Text size="sm">
          {t('auth.signUp.haveAccount', 'Already have an account?')}{' '}
          <Anchor component={Link} to="/sign-in">
            {t('auth.signUp.signInLink', 'Sign in')}
          </Anchor>
        </Text>
      }
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          {signUp.isError && !isOnFields ? <AuthError error={signUp.error} /> : null}
          <TextInput
            label={t('auth.signUp.organisation', 'Organisation name')}
            autoComplete="organization"
            required
            withAsterisk={false}
            {...form.getInputProps('organisation')}
          />
          <TextInput
            label={t('auth.signUp.workspace', 'Workspace name')}
            description={t(
              'auth.signUp.workspaceHint',
              'Lowercase letters, digits and hyphens, e.g. acme. It names your workspace in addresses and cannot be changed later.',
            )}
            autoComplete="off"
            spellCheck={false}
            required
            withAsterisk={false}
            {...form.getInputProps('tenant')}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              label={t('auth.signUp.firstname', 'First name')}
              autoComplete="given-name"
              required
              withAsterisk={false}
              {...form.getInputProps('firstname')}
            />
            <TextInput
              label={t('auth.signUp.lastname', 'Last name')}
              autoComplete="family-name"
              required
              withAsterisk={false}
              {...form.getInputProps('lastname')}
            />
          </SimpleGrid>
          <TextInput
            label={t('auth.signUp.email', 'Email')}
            type="email"
            autoComplete="email"
            required
            withAsterisk={false}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label={t('auth.signUp.password', 'Password')}
            description={t(
              'auth.signUp.passwordHint',
              'At least 10 characters and hard to guess: not your e-mail address or the workspace name.',
            )}
            autoComplete="new-password"
            required
            withAsterisk={false}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label={t('auth.signUp.confirmPassword', 'Confirm password')}
            autoComplete="new-password"
            required
            withAsterisk={false}
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" fullWidth loading={form.submitting}>
            {t('auth.signUp.submit', 'Create account')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
