import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { EmbedLinkList, EmbedSessionWarning } from '../../../components/embed/embed-share-button';
import { useSession, useWorkingTenant } from '../../../lib/auth';
import { type EmbedTarget, embedTarget, workingTenantKind } from '../../../lib/embed-links';

/**
 * Every embedded dashboard of the working tenant (spec §2) with its link for the current session, behind a button
 * so the links are built (and the config fetched) only when asked for. The per-user dashboard needs a user: its
 * link is on each user's page.
 */
export function EmbedLinksCard() {
  const { t } = useTranslation();
  const titleId = useId();
  const { session } = useSession();
  const tenant = useWorkingTenant();
  const [opened, { toggle }] = useDisclosure(false);
  const targets: EmbedTarget[] = [
    embedTarget('tenant', { tenant }),
    embedTarget('global'),
    embedTarget('spa', { tenant }),
    embedTarget('agentless', { tenant }),
    embedTarget('5g', { tenant }),
    embedTarget('intrusion-detection', { tenant }),
    embedTarget('xdr', { tenant, tenantType: workingTenantKind(session, tenant) }),
    embedTarget('incident-response', { tenant }),
    embedTarget('vulnerability-management', { tenant }),
    embedTarget('diagnostics', { tenant }),
    embedTarget('weekly-sase', { tenant }),
    embedTarget('weekly-site-performance', { tenant }),
    embedTarget('ai-search', { tenant }),
  ];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId} mb="xs">
        {t('embed.settings.title', 'Embedded dashboards')}
      </Title>
      <Stack gap="md">
        <Text size="sm">
          {t(
            'embed.settings.text',
            'Links that open one dashboard of this tenant on its own, without the console around it, for another page or a wall screen. The per-user dashboard’s link is on each user’s page.',
          )}
        </Text>
        <EmbedSessionWarning />
        <Button variant="default" onClick={toggle} aria-expanded={opened} style={{ alignSelf: 'flex-start' }}>
          {opened ? t('embed.settings.hide', 'Hide the links') : t('embed.settings.show', 'Show the links')}
        </Button>
        {opened && tenant ? <EmbedLinkList targets={targets} /> : null}
      </Stack>
    </Card>
  );
}
