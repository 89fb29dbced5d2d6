import { Alert, Button, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { type EmbedTarget, useDashboardBase } from '../../lib/embed-links';
import { getSessionId } from '../../lib/session-store';
import { LoadingState } from '../ui/query-state';
import { useEmbedKindLabels } from './embed-labels';
import { EmbedLinkField } from './embed-link-field';

/** The warning every list of embedded-dashboard links shows: the link is the session. */
export function EmbedSessionWarning() {
  const { t } = useTranslation();
  return (
    <Alert color="orange" title={t('embed.warningTitle', 'The link carries your session')}>
      {t(
        'embed.warningText',
        'Whoever opens it is signed in as you, with your rights, until you sign out. Share it only with people and screens you trust.',
      )}
    </Alert>
  );
}

/** The links of `targets` for the current session, or why there are none yet. */
export function EmbedLinkList({
  targets,
  isEnabled = true,
}: {
  targets: EmbedTarget[];
  isEnabled?: boolean;
}) {
  const { t } = useTranslation();
  const labels = useEmbedKindLabels();
  const base = useDashboardBase(isEnabled);
  const sessionId = getSessionId();
  if (!sessionId) {
    return <Text size="sm">{t('embed.noSession', 'Sign in to get the links of the dashboards.')}</Text>;
  }
  if (base === undefined) return <LoadingState label={t('embed.loading', 'Loading the links…')} />;
  return (
    <Stack gap="sm">
      {targets.map((target) => (
        <EmbedLinkField key={target.kind} label={labels[target.kind]} link={target.build(base, sessionId)} />
      ))}
    </Stack>
  );
}

/** Props of {@link EmbedShareButton}. */
export interface EmbedShareButtonProps {
  /** The embedded dashboards that show this screen (one, or the few that map to it). */
  targets: EmbedTarget[];
}

/**
 * "Embed" in a dashboard's header: a dialog with the link of the embedded view of this dashboard (spec §2), built
 * from the dashboard base host and the current session id, to copy, and the warning that it carries the session.
 */
export function EmbedShareButton({ targets }: EmbedShareButtonProps) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="default" onClick={open}>
        {t('embed.share', 'Embed')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('embed.shareTitle', 'Embed this dashboard')} size="lg">
        <Stack gap="md">
          <Text size="sm">
            {t(
              'embed.shareText',
              'The link opens this dashboard on its own, without the console around it: for another page to show, or a screen on the wall.',
            )}
          </Text>
          <EmbedSessionWarning />
          {opened ? <EmbedLinkList targets={targets} /> : null}
        </Stack>
      </Modal>
    </>
  );
}
