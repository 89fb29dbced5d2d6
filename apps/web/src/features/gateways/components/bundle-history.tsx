import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { type BundleSummary, GATEWAY_BUNDLES_KEPT } from '@palisade/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArtefactDiffView } from '../../../components/diff/artefact-diff-view';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { RelativeTime } from '../../../components/ui/relative-time';
import { useCan } from '../../../lib/auth';
import { formatNumber } from '../../../lib/i18n';
import { showSuccess } from '../../../lib/mutation-toast';
import { useBundleDiff } from '../api/get-bundle-diff';
import { useBundles } from '../api/get-bundles';
import { usePushBundle } from '../api/push-bundle';

/** The diff of one kept version against the current bundle, under a heading that takes the focus when opened. */
function BundleComparison({
  tenant,
  bundle,
  canPush,
  onPush,
  onClose,
}: {
  tenant: string;
  bundle: BundleSummary;
  canPush: boolean;
  onPush: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const diff = useBundleDiff(tenant, bundle.version);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version compared is the trigger.
  useEffect(() => {
    headingRef.current?.focus();
  }, [bundle.version]);

  return (
    <Paper component="section" withBorder p="md" radius="sm" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Title order={3} size="h5" id={headingId} ref={headingRef} tabIndex={-1}>
            {t('gateways.bundles.compareTitle', 'Version {{version}} against the current bundle', {
              version: bundle.version,
            })}
          </Title>
          <Group gap="sm">
            {canPush ? (
              <Button size="compact-sm" onClick={onPush}>
                {t('gateways.bundles.push', 'Push this version back')}
              </Button>
            ) : null}
            <Button size="compact-sm" variant="default" onClick={onClose}>
              {t('gateways.bundles.closeCompare', 'Close comparison')}
            </Button>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t(
            'gateways.bundles.compareHint',
            'What pushing this version back would change on every gateway: lines starting with + would be added, lines starting with - removed.',
          )}
        </Text>
        {diff.isPending ? (
          <LoadingState label={t('gateways.bundles.compareLoading', 'Comparing…')} />
        ) : diff.isError ? (
          <ErrorState error={diff.error} onRetry={() => void diff.refetch()} />
        ) : (
          <ArtefactDiffView artefacts={diff.data.artefacts} headingOrder={4} />
        )}
      </Stack>
    </Paper>
  );
}

/** The state badges of a kept version: current, pinned (pushed back by an administrator, and when). */
function StateBadges({ bundle }: { bundle: BundleSummary }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Group gap={4} wrap="wrap">
        {bundle.isCurrent ? (
          <Badge color="green" variant="light" radius="sm" miw="max-content">
            {t('gateways.bundles.current', 'Current')}
          </Badge>
        ) : null}
        {bundle.pinnedAt ? (
          <Badge color="violet" variant="light" radius="sm" miw="max-content">
            {t('gateways.bundles.pinned', 'Pinned')}
          </Badge>
        ) : null}
      </Group>
      {bundle.pinnedAt ? (
        <Text size="xs" c="dimmed">
          {t('gateways.bundles.pinnedAt', 'Pushed back')} <RelativeTime value={bundle.pinnedAt} />
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The tenant's kept policy bundle versions, newest first (tenant-wide: every gateway enforces the same one):
 * version, when it was compiled, from which policy version, whether it is current or pinned, and how many rule
 * items no artefact could express. Any other version can be compared with the current one and, with
 * `gateways:update`, pushed back to every gateway after a confirmation.
 */
export function BundleHistory({ tenant }: { tenant: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const canPush = useCan('gateways:update');
  const bundles = useBundles(tenant);
  const [compared, setCompared] = useState<BundleSummary | null>(null);
  // The version to push stays set while the dialog closes, so its title does not change under the animation.
  const [toPush, setToPush] = useState<BundleSummary | null>(null);
  const [isConfirming, setConfirming] = useState(false);
  const askToPush = (bundle: BundleSummary) => {
    setToPush(bundle);
    setConfirming(true);
  };
  const idPrefix = useId();
  const push = usePushBundle(tenant, {
    onSuccess: (bundle) => {
      setConfirming(false);
      setCompared(null);
      showSuccess(
        t('gateways.bundles.pushed', 'Version {{version}} pushed back to every gateway.', {
          version: bundle.version,
        }),
      );
    },
  });

  if (bundles.isPending) return <LoadingState label={t('gateways.bundles.loading', 'Loading bundles…')} />;
  if (bundles.isError) return <ErrorState error={bundles.error} onRetry={() => void bundles.refetch()} />;
  const items = bundles.data.items;
  if (items.length === 0) {
    return <EmptyState message={t('gateways.bundles.empty', 'No policy bundle has been compiled yet.')} />;
  }

  return (
    <Stack gap="md">
      <Text size="sm">
        {t(
          'gateways.bundles.intro',
          'Every gateway of this tenant enforces the current bundle, compiled from the policies. The last {{kept, number}} versions are kept: compare one with the current bundle, or push it back to roll back.',
          { kept: GATEWAY_BUNDLES_KEPT },
        )}
      </Text>
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover verticalSpacing="xs">
          <Table.Caption>{t('gateways.bundles.caption', 'Kept bundle versions, newest first')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('gateways.bundles.version', 'Version')}</Table.Th>
              <Table.Th scope="col">{t('gateways.bundles.created', 'Created')}</Table.Th>
              <Table.Th scope="col">{t('gateways.bundles.policyVersion', 'Policy version')}</Table.Th>
              <Table.Th scope="col">{t('gateways.bundles.state', 'State')}</Table.Th>
              <Table.Th scope="col">{t('gateways.bundles.skipped', 'Skipped items')}</Table.Th>
              <Table.Th scope="col">{t('gateways.bundles.actions', 'Actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((bundle) => {
              const versionId = `${idPrefix}-${bundle.version}`;
              return (
                <Table.Tr key={bundle.version} aria-current={bundle.isCurrent ? 'true' : undefined}>
                  <Table.Th scope="row" id={versionId} fw={400}>
                    <Text span size="sm" ff="monospace">
                      {bundle.version}
                    </Text>
                  </Table.Th>
                  <Table.Td>
                    <RelativeTime value={bundle.createdAt} />
                  </Table.Td>
                  <Table.Td>{formatNumber(bundle.policyVersion, locale)}</Table.Td>
                  <Table.Td>
                    <StateBadges bundle={bundle} />
                  </Table.Td>
                  <Table.Td>
                    {bundle.skipped > 0 ? (
                      <Badge color="yellow" variant="light" radius="sm" miw="max-content">
                        {t('gateways.bundles.skippedCount', {
                          count: bundle.skipped,
                          defaultValue_one: '{{count, number}} skipped',
                          defaultValue_other: '{{count, number}} skipped',
                        })}
                      </Badge>
                    ) : (
                      <Text span size="sm" c="dimmed">
                        {t('gateways.bundles.noneSkipped', 'None')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {bundle.isCurrent ? null : (
                      <Group gap={6} wrap="wrap">
                        <Button
                          size="compact-sm"
                          variant="default"
                          aria-describedby={versionId}
                          aria-pressed={compared?.version === bundle.version}
                          onClick={() => setCompared(bundle)}
                        >
                          {t('gateways.bundles.compare', 'Compare with current')}
                        </Button>
                        {canPush ? (
                          <Button
                            size="compact-sm"
                            variant="light"
                            aria-describedby={versionId}
                            onClick={() => askToPush(bundle)}
                          >
                            {t('gateways.bundles.push', 'Push this version back')}
                          </Button>
                        ) : null}
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {compared ? (
        <BundleComparison
          tenant={tenant}
          bundle={compared}
          canPush={canPush}
          onPush={() => askToPush(compared)}
          onClose={() => setCompared(null)}
        />
      ) : null}
      <ConfirmModal
        opened={isConfirming}
        title={t('gateways.bundles.confirmTitle', 'Push version {{version}} back?', {
          version: toPush?.version ?? '',
        })}
        message={t(
          'gateways.bundles.confirmMessage',
          'Every gateway of this tenant receives this bundle within seconds and enforces it instead of the current one. It stays in force until the policy changes again: the next policy change compiles and pushes a new bundle.',
        )}
        confirmLabel={t('gateways.bundles.confirm', 'Push back to every gateway')}
        isBusy={push.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          if (toPush) push.mutate(toPush.version);
        }}
      />
    </Stack>
  );
}
