import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Props of {@link EmbedSignedOut}. */
export interface EmbedSignedOutProps {
  /** `none`: opened without a link's token; `ended`: the link expired or was revoked. */
  reason: 'none' | 'ended';
}

/**
 * What an embedded dashboard shows without a usable link: it opens only with the link made for it (Settings →
 * Embedded dashboards), never with anyone's session.
 */
export function EmbedSignedOut({ reason }: EmbedSignedOutProps) {
  const { t } = useTranslation();
  return (
    <main id="main-content" tabIndex={-1} style={{ padding: 'var(--mantine-spacing-xl)', outline: 'none' }}>
      <Stack gap="sm" maw={640}>
        <Title order={1} size="h2">
          {reason === 'ended'
            ? t('embed.signedOut.endedTitle', 'This link has ended')
            : t('embed.signedOut.title', 'This dashboard needs its link')}
        </Title>
        <Text>
          {reason === 'ended'
            ? t(
                'embed.signedOut.endedText',
                'The link this dashboard was opened with has expired or was revoked. Ask whoever shared it for a new one.',
              )
            : t(
                'embed.signedOut.text',
                'An embedded dashboard opens with the link made for it in the console (Settings → Embedded dashboards). Open that link, or ask whoever manages the dashboards for one.',
              )}
        </Text>
      </Stack>
    </main>
  );
}
