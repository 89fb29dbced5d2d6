import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { LoadingState } from '../../../components/ui/query-state';
import { useSession } from '../../../lib/auth';
import { PasswordSection } from '../components/password-section';
import { ProfileSection } from '../components/profile-section';
import { TotpSection } from '../components/totp-section';

/** `/settings`: the signed-in user's profile and look, password and two-step sign-in. */
export function Component() {
  const { t } = useTranslation();
  const { session } = useSession();
  return (
    <>
      <PageHeader
        title={t('settings.title', 'Settings')}
        description={session ? session.username : undefined}
      />
      {session ? (
        <Stack gap="lg" maw={860}>
          <ProfileSection session={session} />
          <PasswordSection session={session} />
          <TotpSection session={session} />
        </Stack>
      ) : (
        <LoadingState />
      )}
    </>
  );
}
