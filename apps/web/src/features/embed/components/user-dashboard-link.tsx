import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmbedLinkList, EmbedSessionWarning } from '../../../components/embed/embed-share-button';
import { useWorkingTenant } from '../../../lib/auth';
import { embedTarget } from '../../../lib/embed-links';

/** Props of {@link UserDashboardLink}. */
export interface UserDashboardLinkProps {
  userId: string;
  userName: string;
}

/** The link of a user's embedded dashboard (spec §2, the per-user dashboard): what the policy decided for them. */
export function UserDashboardLink({ userId, userName }: UserDashboardLinkProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  return (
    <Stack gap="md" maw={860}>
      <Text size="sm">
        {t(
          'embed.user.text',
          'A link that opens what the policy decided for {{user}} on its own, without the console around it, for another page or a wall screen.',
          { user: userName },
        )}
      </Text>
      <EmbedSessionWarning />
      <EmbedLinkList targets={[embedTarget('user-tag', { tenant, userId, userName })]} />
    </Stack>
  );
}
