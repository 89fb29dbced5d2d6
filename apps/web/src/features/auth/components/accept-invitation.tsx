import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Password } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../../lib/api-client';
import { serverFieldErrors, translateKey, zodValidator } from '../../../lib/form-errors';
import { useAcceptInvitation } from '../api/invitation';
import { AuthCard } from './auth-card';
import { AuthError } from './auth-error';

const AcceptForm = z.object({ password: Password, confirm: z.string() });

/** An invited administrator chooses a password; the link itself proves the address. */
export function AcceptInvitation(props: { transid: string; email: string; tenantDisplayName: string }) {
  const { t } = useTranslation();
  const accept = useAcceptInvitation(props.transid);
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirm: '' },
    validate: (values) => {
      const errors = zodValidator(AcceptForm, t)(values);
      if (!errors.confirm && values.confirm !== values.password) {
        errors.confirm = translateKey(t, 'validation.passwordsDiffer');
      }
      return errors;
    },
  });

  if (accept.isSuccess) {
    return (
      <AuthCard
        title={t('auth.invite.doneTitle', 'Welcome aboard')}
        description={t('auth.invite.done', 'Your password is set. Sign in with {{email}}.', {
          email: props.email,
        })}
      >
        <Button component={Link} to="/sign-in" fullWidth>
          {t('auth.verify.signIn', 'Sign in')}
        </Button>
      </AuthCard>
    );
  }

  const handleSubmit = form.onSubmit(async ({ password }) => {
    try {
      await accept.mutateAsync(password);
    } catch (error) {
      const errors = serverFieldErrors(error, t);
      form.setErrors(errors);
      if (errors.password) form.getInputNode('password')?.focus();
    }
  });

  // A refused password shows under its field; the alert is for everything else.
  const isOnFields = accept.error instanceof ApiError && Boolean(accept.error.details?.length);

  return (
    <AuthCard
      title={t('auth.invite.title', 'Join {{tenant}}', { tenant: props.tenantDisplayName })}
      description={t(
        'auth.invite.description',
        'You were invited as an administrator. Choose a password for {{email}}.',
        {
          email: props.email,
        },
      )}
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          {accept.isError && !isOnFields ? <AuthError error={accept.error} /> : null}
          <PasswordInput
            label={t('auth.invite.password', 'New password')}
            description={t(
              'auth.invite.passwordHint',
              'At least 10 characters and hard to guess: not your e-mail address or the workspace name.',
            )}
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label={t('auth.invite.confirm', 'Confirm password')}
            autoComplete="new-password"
            {...form.getInputProps('confirm')}
          />
          <Button type="submit" loading={accept.isPending} fullWidth>
            {t('auth.invite.submit', 'Set password')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
