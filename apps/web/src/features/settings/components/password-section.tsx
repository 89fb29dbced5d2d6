import { Button, Card, Checkbox, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Password, type PasswordChangeResult, type Session } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { schemaFieldErrors, serverFieldErrors } from '../../../lib/form-errors';
import { notify } from '../../../lib/notify';
import { useChangePassword } from '../api/profile';
import { useFailureToast } from './use-failure-toast';

interface PasswordValues {
  current: string;
  next: string;
  confirm: string;
  revokeTokens: boolean;
}

const PasswordForm = z
  .object({
    current: z.string().min(1, { message: 'validation.required' }),
    next: Password,
    confirm: z.string(),
  })
  .refine((values) => values.next === values.confirm, {
    path: ['confirm'],
    message: 'validation.passwordsDiffer',
  });

/**
 * The toast after a password change: what else it ended, counted ("2 other sessions were signed out and 1 API
 * token was revoked."); nothing is said of sessions when no other was open.
 */
export function passwordChangedMessage(
  t: TFunction,
  result: PasswordChangeResult,
  hasAskedToRevokeTokens: boolean,
): string {
  const { endedSessions: sessions, revokedTokens: tokens } = result;
  const parts = [t('settings.password.changed', 'Your password was changed.')];
  if (sessions > 0 && tokens > 0) {
    parts.push(
      t('settings.password.signedOutAndRevoked', {
        count: tokens,
        sessions: t('settings.password.signedOutPart', {
          count: sessions,
          defaultValue: '{{count}} other sessions were signed out',
        }),
        defaultValue: '{{sessions}} and {{count}} API tokens were revoked.',
      }),
    );
  } else if (sessions > 0) {
    parts.push(
      t('settings.password.signedOut', {
        count: sessions,
        defaultValue: '{{count}} other sessions were signed out.',
      }),
    );
  } else if (tokens > 0) {
    parts.push(
      t('settings.password.revokedTokens', {
        count: tokens,
        defaultValue: '{{count}} API tokens were revoked.',
      }),
    );
  }
  if (hasAskedToRevokeTokens && tokens === 0) {
    parts.push(t('settings.password.noTokens', 'You had no active API tokens to revoke.'));
  }
  return parts.join(' ');
}
/** The password card: the current and the new password, and whether to revoke the API tokens too. */
export function PasswordSection({ session }: { session: Session }) {
  const { t } = useTranslation();
  const changePassword = useChangePassword();
  const showFailure = useFailureToast();
  // End users connect through the client and have no API tokens.
  const hasTokens = session.usertype !== 0;
  const form = useForm<PasswordValues>({
    mode: 'controlled',
    initialValues: { current: '', next: '', confirm: '', revokeTokens: false },
    validate: (values) => schemaFieldErrors(PasswordForm, values, t),
  });

  function handleSubmit(values: PasswordValues) {
    const revokeTokens = hasTokens && values.revokeTokens;
    changePassword.mutate(
      { current: values.current, next: values.next, revokeTokens },
      {
        onSuccess: (result) => {
          form.reset();
          notify(passwordChangedMessage(t, result, revokeTokens), { color: 'green' });
        },
        onError: (error) => {
          // A wrong current password or a refused new one shows on its field; anything else as a toast.
          const errors = serverFieldErrors(error, t);
          form.setErrors(errors);
          if (Object.keys(errors).length === 0) {
            showFailure(error, t('settings.password.failed', 'Your password was not changed.'));
          }
        },
      },
    );
  }

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="password-title">
      <Title order={2} size="h4" id="password-title" mb="md">
        {t('settings.password.title', 'Change password')}
      </Title>
      <form onSubmit={form.onSubmit(handleSubmit)} noValidate>
        <Stack gap="md">
          <PasswordInput
            label={t('settings.password.current', 'Current password')}
            required
            autoComplete="current-password"
            {...form.getInputProps('current')}
          />
          <PasswordInput
            label={t('settings.password.next', 'New password')}
            description={t(
              'settings.password.rule',
              'At least 10 characters and hard to guess: not your e-mail address or the workspace name.',
            )}
            required
            autoComplete="new-password"
            {...form.getInputProps('next')}
          />
          <PasswordInput
            label={t('settings.password.confirm', 'Repeat the new password')}
            required
            autoComplete="new-password"
            {...form.getInputProps('confirm')}
          />
          {hasTokens ? (
            <Checkbox
              label={t('settings.password.revokeTokens', 'Also revoke all my API tokens')}
              description={t(
                'settings.password.revokeTokensHint',
                'Scripts and automation that use them stop working at once.',
              )}
              {...form.getInputProps('revokeTokens', { type: 'checkbox' })}
            />
          ) : null}
          <Text size="sm" c="dimmed">
            {t(
              'settings.password.sessionsNote',
              'Changing your password signs you out on every other device and browser; you stay signed in here.',
            )}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" loading={changePassword.isPending}>
              {t('settings.password.submit', 'Change password')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
