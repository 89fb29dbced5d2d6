import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, errorMessageKey } from '../../../lib/api-client';

/** Props of {@link AuthError}. */
export interface AuthErrorProps {
  error: unknown;
  /** The address typed in, passed on to the resend page when the e-mail is not verified yet. */
  email?: string;
  /** Where "Sign in again" leads when a sign-in transaction has expired. */
  signInPath?: string;
}

/**
 * Why a sign-in, sign-up or verification call failed, in words: the translated `error.{errcode}`, with a
 * clear title for a locked account and the way forward for an unverified address or an expired sign-in.
 */
export function AuthError({ error, email, signInPath = '/sign-in' }: AuthErrorProps) {
  const { t } = useTranslation();
  const message = t(errorMessageKey(error), {
    defaultValue: t('error.genericFetchErrorText', 'We could not load the data. Please try again.'),
  });
  const code = error instanceof ApiError ? error.code : null;

  if (code === 'account_locked') {
    const seconds = error instanceof ApiError ? error.retryAfterSeconds : undefined;
    return (
      <Alert color="red" variant="light" role="alert" title={t('auth.error.lockedTitle', 'Sign-in paused')}>
        {message}
        {seconds ? (
          <Text size="sm" mt={6}>
            {seconds < 90
              ? t('auth.error.lockedSeconds', {
                  count: seconds,
                  defaultValue: 'Try again in {{count}} seconds.',
                })
              : t('auth.error.lockedMinutes', {
                  count: Math.ceil(seconds / 60),
                  defaultValue: 'Try again in {{count}} minutes.',
                })}
          </Text>
        ) : null}
      </Alert>
    );
  }
  if (code === 'email_not_verified') {
    return (
      <Alert
        color="yellow"
        variant="light"
        role="alert"
        title={t('auth.error.notVerifiedTitle', 'E-mail not verified')}
      >
        <Stack gap={6}>
          <Text size="sm">{message}</Text>
          <Anchor component={Link} to="/email-verification" state={{ email }} size="sm">
            {t('auth.error.resendLink', 'Send the verification e-mail again')}
          </Anchor>
        </Stack>
      </Alert>
    );
  }
  if (code === 'transaction_expired' || code === 'not_found') {
    return (
      <Alert
        color="yellow"
        variant="light"
        role="alert"
        title={t('auth.error.expiredTitle', 'Sign-in expired')}
      >
        <Stack gap={6}>
          <Text size="sm">{t('error.15', 'This link or sign-in has expired.')}</Text>
          <Anchor component={Link} to={signInPath} size="sm">
            {t('auth.error.signInAgain', 'Sign in again')}
          </Anchor>
        </Stack>
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" role="alert">
      {message}
    </Alert>
  );
}
