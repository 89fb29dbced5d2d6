import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthCard } from '../components/auth-card';

/** `/ntgr-signout`: where the users of listed partners land after signing out (spec §6). */
export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard
      title={t('auth.signedOut.title', 'You have been signed out')}
      description={t('auth.signedOut.description', 'Your session has ended. Thank you for using Palisade.')}
    >
      <Button component={Link} to="/sign-in" fullWidth>
        {t('auth.signedOut.signIn', 'Sign in again')}
      </Button>
    </AuthCard>
  );
}
