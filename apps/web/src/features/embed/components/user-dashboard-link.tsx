import { Button, Stack, Text } from '@mantine/core';
import type { CreatedEmbedLink } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreatedEmbedLinks, EmbedLinkForm } from '../../../components/embed/embed-link-form';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { embedTarget } from '../../../lib/embed-links';

/** Props of {@link UserDashboardLink}. */
export interface UserDashboardLinkProps {
  userId: string;
  userName: string;
}

/**
 * The link of a user's embedded dashboard (spec §2, the per-user dashboard): what the policy decided for them.
 * The link reads this user's decisions only; it is listed, and revoked, in Settings → Embedded dashboards.
 */
export function UserDashboardLink({ userId, userName }: UserDashboardLinkProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canSeeDashboards = useCan('dashboard:view');
  const canSeeEvents = useCan('events:view');
  const canView = canSeeDashboards && canSeeEvents;
  const [isCreating, setIsCreating] = useState(false);
  const [created, setCreated] = useState<CreatedEmbedLink | null>(null);
  const done = () => {
    setCreated(null);
    setIsCreating(false);
  };
  return (
    <Stack gap="md" maw={860}>
      <Text size="sm">
        {t(
          'embed.user.text',
          'A link that opens what the policy decided for {{user}} on its own, without the console around it, for another page or a wall screen. It shows this user’s requests only, read-only, until it expires or is revoked.',
          { user: userName },
        )}
      </Text>
      {created ? (
        <CreatedEmbedLinks
          link={created}
          targets={[embedTarget('user-tag', { tenant, userId, userName })]}
          onDone={done}
        />
      ) : isCreating ? (
        <EmbedLinkForm
          tenant={tenant}
          kinds={['user-tag']}
          userId={userId}
          defaultName={t('embed.user.defaultName', 'Dashboard of {{user}}', { user: userName })}
          onCreated={setCreated}
          onCancel={() => setIsCreating(false)}
        />
      ) : canView ? (
        <Button variant="default" onClick={() => setIsCreating(true)} style={{ alignSelf: 'flex-start' }}>
          {t('embed.user.create', 'Create a dashboard link')}
        </Button>
      ) : (
        <Text size="sm" c="dimmed">
          {t(
            'embed.user.cannot',
            'Your role cannot make dashboard links (it needs to see dashboards and events).',
          )}
        </Text>
      )}
    </Stack>
  );
}
