import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ResendInput } from '@palisade/contracts';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { useSignupStatus } from '../api/get-signup-status';
import { useResendVerification } from '../api/resend-verification';
import { AuthCard } from '../components/auth-card';
import { AuthError } from '../components/auth-error';
import { authState } from '../utils/redirect';

/**
 * `/email-verification`: "check your inbox" after sign-up (the address comes in router state, or `?email=`),
 * a form to send the link again, and the way to type the code in by hand. Right after a sign-up the router state
 * also carries the sign-up's status id: the page then asks every few seconds and turns to "verified" by itself
 * once the link was opened (on any device), or says when it expired.
 */
export function Component() {
  const { t } = useTranslation();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const state = authState(location.state);
  const email = state.email ?? searchParams.get('email') ?? '';
  const status = useSignupStatus(state.transid);
  const transstatus = status.data?.transstatus;
  const resend = useResendVerification();

  const form = useForm({
    mode: 'controlled',
    initialValues: { email },
    validate: zodValidator(ResendInput, t),
  });

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      await resend.mutateAsync(ResendInput.parse(values).email);
    } catch (error) {
      form.setErrors(serverFieldErrors(error, t));
    }
  });

  if (transstatus === 'completed') {
    return (
      <AuthCard
        title={t('auth.verify.verifiedTitle', 'E-mail address verified')}
        description={t('auth.verify.verified', 'Your account is ready. You can sign in now.')}
      >
        <Button component={Link} to="/sign-in" fullWidth>
          {t('auth.verify.signIn', 'Sign in')}
        </Button>
      </AuthCard>
    );
  }

  const isExpired = transstatus === 'expired';
  return (
    <AuthCard
      title={
        isExpired
          ? t('auth.verify.expiredTitle', 'This link has expired')
          : t('auth.emailVerification.title', 'Check your inbox')
      }
      footer={
        <>
          <Anchor component={Link} to="/verify/email-verification" size="sm">
            {t('auth.emailVerification.enterCode', 'Enter a verification code instead')}
          </Anchor>
          <Anchor component={Link} to="/sign-in" size="sm">
            {t('auth.emailVerification.signIn', 'Back to sign in')}
          </Anchor>
        </>
      }
    >
      {isExpired ? (
        <Alert color="yellow" variant="light" role="status">
          {t('auth.verify.expired', 'Verification links are valid for 24 hours. Ask for a new one.')}
        </Alert>
      ) : (
        <Text size="sm">
          {email ? (
            <Trans
              i18nKey="auth.emailVerification.sentTo"
              defaults="We sent a verification link to <strong>{{email}}</strong>. Open it to activate your account; it is valid for 24 hours."
              values={{ email }}
              components={{ strong: <strong /> }}
            />
          ) : (
            t(
              'auth.emailVerification.sent',
              'We sent you a verification link. Open it to activate your account; it is valid for 24 hours.',
            )
          )}
        </Text>
      )}
      {transstatus === 'pending' ? (
        <Text size="sm" c="dimmed">
          {t(
            'auth.emailVerification.waiting',
            'This page shows when your address is verified, even if you open the link on another device.',
          )}
        </Text>
      ) : null}
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t(
              'auth.emailVerification.resendIntro',
              'No e-mail? Check your spam folder, or send the link again.',
            )}
          </Text>
          {resend.isSuccess ? (
            <Alert color="green" variant="light" role="status">
              {t(
                'auth.emailVerification.resent',
                'If an account with this address is waiting for verification, a new link is on its way.',
              )}
            </Alert>
          ) : null}
          {resend.isError ? <AuthError error={resend.error} /> : null}
          <TextInput
            label={t('auth.emailVerification.email', 'Email')}
            type="email"
            autoComplete="email"
            required
            withAsterisk={false}
            {...form.getInputProps('email')}
          />
          <Button type="submit" variant="light" fullWidth loading={form.submitting}>
            {t('auth.emailVerification.resend', 'Send the verification e-mail again')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
