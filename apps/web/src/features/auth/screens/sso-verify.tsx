import { Alert, Button } from '@mantine/core';
import { HOME_PATH } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '../components/auth-card';

/**
 * `/sso-verify?status=success|failure&message=…`: the result of a single sign-on as the identity provider
 * reported it. It only reports: it signs nobody in, and "Continue" goes through the normal session check.
 */
export function Component() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const status = searchParams.get('status');
  const message = searchParams.get('message')?.trim() ?? '';

  const signInButton = (
    <Button component={Link} to="/sign-in" fullWidth>
      {t('auth.sso.signIn', 'Back to sign in')}
    </Button>
  );

  if (status === 'success') {
    return (
      <AuthCard
        title={t('auth.sso.successTitle', 'Single sign-on complete')}
        description={t('auth.sso.success', 'Your identity provider confirmed your sign-in.')}
      >
        <Button component={Link} to={HOME_PATH} fullWidth>
          {t('auth.sso.continue', 'Continue')}
        </Button>
      </AuthCard>
    );
  }
  if (status === 'failure') {
    return (
      <AuthCard title={t('auth.sso.failureTitle', 'Single sign-on failed')}>
        <Alert color="red" variant="light" role="alert" title={t('auth.sso.reason', 'Reason')}>
          {/* The provider's own words, shown as text, never as markup. */}
          {message || t('auth.sso.noReason', 'Your identity provider did not confirm the sign-in.')}
        </Alert>
        {signInButton}
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t('auth.sso.noResultTitle', 'No single sign-on result')}
      description={t(
        'auth.sso.noResult',
        'This page shows the result of a single sign-on. Start from the sign-in page.',
      )}
    >
      {signInButton}
    </AuthCard>
  );
}
