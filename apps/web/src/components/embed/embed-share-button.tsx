import { Button, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { CreatedEmbedLink } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan, useWorkingTenant } from '../../lib/auth';
import type { EmbedTarget } from '../../lib/embed-links';
import { useEmbedKindLabels } from './embed-labels';
import { CreatedEmbedLinks, EmbedLinkForm } from './embed-link-form';

/** Props of {@link EmbedShareButton}. */
export interface EmbedShareButtonProps {
  /** The embedded dashboards that show this screen (one, or the few that map to it). */
  targets: EmbedTarget[];
}

/**
 * "Embed" in a dashboard's header: makes an embed link for the embedded view of this dashboard (spec §2) — a
 * read-only credential of its own, expiring and revocable, never the session — and shows its address to copy.
 * Every link is listed, and revoked, in Settings → Embedded dashboards.
 */
export function EmbedShareButton({ targets }: EmbedShareButtonProps) {
  const { t } = useTranslation();
  const labels = useEmbedKindLabels();
  const tenant = useWorkingTenant();
  const canView = useCan('dashboard:view');
  const [opened, { open, close }] = useDisclosure(false);
  const [created, setCreated] = useState<CreatedEmbedLink | null>(null);
  const handleClose = () => {
    setCreated(null);
    close();
  };
  if (!canView) return null;
  return (
    <>
      <Button variant="default" onClick={open}>
        {t('embed.share', 'Embed')}
      </Button>
      <Modal
        opened={opened}
        onClose={handleClose}
        title={t('embed.shareTitle', 'Embed this dashboard')}
        size="lg"
      >
        {created ? (
          <CreatedEmbedLinks link={created} targets={targets} onDone={handleClose} />
        ) : (
          <Stack gap="md">
            <Text size="sm">
              {t(
                'embed.shareText',
                'A link that opens this dashboard on its own, without the console around it, for another page or a screen on the wall. It is read-only, shows only this dashboard of this tenant and ends when it expires or is revoked in Settings → Embedded dashboards.',
              )}
            </Text>
            {opened ? (
              <EmbedLinkForm
                tenant={tenant}
                kinds={targets.map((target) => target.kind)}
                defaultName={labels[targets[0]?.kind ?? 'tenant']}
                onCreated={setCreated}
                onCancel={handleClose}
              />
            ) : null}
          </Stack>
        )}
      </Modal>
    </>
  );
}
