import { Alert, List, Stack, Text, Title } from '@mantine/core';
import type { BundlePreview } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { ArtefactDiffView } from '../../../components/diff/artefact-diff-view';

/**
 * What a save would push: the gateways that would receive a new bundle and each changed artefact's diff, or that
 * nothing a gateway enforces changes.
 */
export function GatewayPreview({ preview }: { preview: BundlePreview }) {
  const { t } = useTranslation();
  const changed = preview.artefacts.filter((artefact) => artefact.added > 0 || artefact.removed > 0);
  const isChanged = preview.nextVersion !== preview.currentVersion && changed.length > 0;
  return (
    <section aria-labelledby="gateway-preview-title">
      <Stack gap="sm">
        <Title order={3} size="h5" id="gateway-preview-title">
          {t('policies.preview.title', 'What this save pushes to the gateways')}
        </Title>
        {!isChanged ? (
          <Text size="sm" role="status">
            {t(
              'policies.preview.unchanged',
              'Nothing a gateway enforces changes: saving pushes no new bundle.',
            )}
          </Text>
        ) : (
          <>
            {preview.gateways.length === 0 ? (
              <Alert color="gray" role="status">
                {t(
                  'policies.preview.noGateways',
                  'No gateway is enrolled yet: the new bundle waits for the first one.',
                )}
              </Alert>
            ) : (
              <>
                <Text size="sm" role="status">
                  {t('policies.preview.receivers', {
                    count: preview.gateways.length,
                    defaultValue_one: '{{count, number}} gateway receives a new bundle within a second:',
                    defaultValue_other: '{{count, number}} gateways receive a new bundle within a second:',
                  })}
                </Text>
                <List size="sm">
                  {preview.gateways.map((gateway) => (
                    <List.Item key={gateway.id}>{gateway.name}</List.Item>
                  ))}
                </List>
              </>
            )}
            <ArtefactDiffView artefacts={changed} headingOrder={4} />
          </>
        )}
      </Stack>
    </section>
  );
}
