import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { OtpCode } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { useSignInOtp } from '../api/sign-in-otp';
import { AuthCard } from '../components/auth-card';
import { AuthError } from '../components/auth-error';
import { authState, returnPath, TRANSID_KEY } from '../utils/redirect';

const OtpForm = z.object({ code: OtpCode });

/**
 * `/verify/otp-verification`: the second sign-in step. The transaction comes in router state from the
 * sign-in screen, or from session storage after a reload.
 */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const state = authState(location.state);
  const transid = state.transid ?? sessionStorage.getItem(TRANSID_KEY);
  const signInPath = state.signInPath ?? '/sign-in';
  const { setSignedIn } = useSession();
  const signInOtp = useSignInOtp();

  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '' },
    validate: zodValidator(OtpForm, t),
  });

  const handleSubmit = form.onSubmit(async ({ code }) => {
    if (!transid) return;
    try {
      const session = await signInOtp.mutateAsync({ transid, code: code.trim() });
      sessionStorage.removeItem(TRANSID_KEY);
      setSignedIn(session);
      navigate(returnPath(state.from), { replace: true });
    } catch (error) {
      const errors = serverFieldErrors(error, t);
      if (error instanceof ApiError && error.code === 'otp_invalid') {
        errors.code ??= t('validation.otpInvalid', 'The code is not valid.');
      }
      form.setErrors(errors);
      form.setFieldValue('code', '');
    }
  });

  const backLink = (
    <Anchor component={Link} to={signInPath} size="sm">
      {t('auth.otp.back', 'Back to sign in')}
    </Anchor>
  );

  if (!transid) {
    return (
      <AuthCard
        title={t('auth.otp.missingTitle', 'Sign in first')}
        description={t(
          'auth.otp.missing',
          'This step needs a sign-in in progress. Start again from the sign-in page.',
        )}
        footer={backLink}
      />
    );
  }

  // An invalid code is shown on the field; other failures (expired, locked) need the alert.
  const isFieldError = signInOtp.error instanceof ApiError && signInOtp.error.code === 'otp_invalid';
  return (
    <AuthCard
      title={t('auth.otp.title', 'Two-step verification')}
      description={t('auth.otp.description', 'Enter the 6-digit code from your authenticator app.')}
      footer={backLink}
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          {signInOtp.isError && !isFieldError ? (
            <AuthError error={signInOtp.error} signInPath={signInPath} />
          ) : null}
          <TextInput
            label={t('auth.otp.code', 'Authentication code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            withAsterisk={false}
            {...form.getInputProps('code')}
          />
          <Button type="submit" fullWidth loading={form.submitting}>
            {t('auth.otp.submit', 'Verify')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
