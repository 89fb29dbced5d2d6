import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SignInInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { LoadingState } from '../../../components/ui/query-state';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { usePartnerBranding } from '../api/get-partner-branding';
import { useSignIn } from '../api/sign-in';
import { AuthCard } from '../components/auth-card';
import { AuthError } from '../components/auth-error';
import { authState, returnPath, TRANSID_KEY } from '../utils/redirect';

/**
 * `/sign-in` and `/:partner/sign-in`: e-mail and password. A partner's page shows its name, logo and colour;
 * an unknown partner gets the plain page. Answers a session (then back to where the user was going, else
 * home) or asks for the second factor (then the OTP step).
 */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { partner } = useParams();
  const { session, setSignedIn } = useSession();
  const brandingQuery = usePartnerBranding(partner);
  const signIn = useSignIn();
  const from = authState(location.state).from;

  const form = useForm<SignInInput>({
    mode: 'controlled',
    initialValues: { username: '', password: '' },
    validate: zodValidator(SignInInput, t),
  });

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      const result = await signIn.mutateAsync(SignInInput.parse(values));
      if ('otpRequired' in result) {
        sessionStorage.setItem(TRANSID_KEY, result.transid);
        navigate('/verify/otp-verification', {
          state: { transid: result.transid, from, signInPath: location.pathname },
        });
        return;
      }
      setSignedIn(result);
      navigate(returnPath(from), { replace: true });
    } catch (error) {
      form.setErrors(serverFieldErrors(error, t));
      // A wrong password is worth retyping; the e-mail stays.
      if (error instanceof ApiError && error.code === 'invalid_credentials')
        form.setFieldValue('password', '');
    }
  });

  if (session && !signIn.isPending) return <Navigate to={returnPath(from)} replace />;
  if (partner && brandingQuery.isPending) return <LoadingState />;
  const branding = partner ? (brandingQuery.data ?? null) : null;

  return (
    <AuthCard
      branding={branding}
      title={t('auth.signIn.title', 'Sign in')}
      description={
        branding
          ? t('auth.signIn.partnerDescription', 'Sign in to your {{partner}} console.', {
              partner: branding.displayName,
            })
          : t('auth.signIn.description', 'Sign in to your Palisade console.')
      }
      footer={
        <Text size="sm">
          {t('auth.signIn.noAccount', 'New to Palisade?')}{' '}
          <Anchor component={Link} to="/sign-up">
            {t('auth.signIn.signUpLink', 'Create an account')}
          </Anchor>
        </Text>
      }
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          {signIn.isError ? <AuthError error={signIn.error} email={form.values.username} /> : null}
          <TextInput
            label={t('auth.signIn.email', 'Email')}
            type="email"
            // The page exists for this form: its first field is where keyboard and screen-reader users start.
            autoFocus
            autoComplete="username"
            required
            withAsterisk={false}
            {...form.getInputProps('username')}
          />
          <PasswordInput
            label={t('auth.signIn.password', 'Password')}
            autoComplete="current-password"
            required
            withAsterisk={false}
            {...form.getInputProps('password')}
          />
          <Button
            type="submit"
            fullWidth
            loading={form.submitting}
            color={branding?.primaryColor ?? undefined}
          >
            {t('auth.signIn.submit', 'Sign in')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
