import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useSignInRedirectPath } from '../lib/auth';

/** What an embedded dashboard shows without a session: it needs a link with one, or a sign-in. */
export function EmbedSignedOut() {
  const { t } = useTranslation();
  const location = useLocation();
  const signInPath = useSignInRedirectPath();
  return (
    <main id="main-content" tabIndex={-1} style={{ padding: 'var(--mantine-spacing-xl)', outline: 'none' }}>
      <Stack gap="sm" maw={640}>
        <Title order={1} size="h2">
          {t('embed.signedOut.title', 'This dashboard needs a session')}
        </Title>
        <Text>
          {t(
            'embed.signedOut.text',
            'Open it with the link the console gives for it, which carries a session, or sign in to see it.',
          )}
        </Text>
        <Anchor component={Link} to={signInPath} state={{ from: location }}>
          {t('embed.signedOut.signIn', 'Sign in')}
        </Anchor>
      </Stack>
    </main>
  );
}
