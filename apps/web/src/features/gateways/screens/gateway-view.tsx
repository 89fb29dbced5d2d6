import { Alert, Badge, Button, Group, Modal, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { type Gateway, Uuid } from '@palisade/contracts';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { DetailList } from '../../../components/ui/detail-list';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { RelativeTime } from '../../../components/ui/relative-time';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { formatNumber } from '../../../lib/i18n';
import { showSuccess } from '../../../lib/mutation-toast';
import { formatThroughput } from '../../../lib/throughput';
import type { GatewayCreatedAnswer } from '../api/gateways-keys';
import { useGateway } from '../api/get-gateway';
import { useRetireGateway } from '../api/retire-gateway';
import { useRotateGatewayCredentials } from '../api/rotate-gateway-credentials';
import { EnrolmentToken } from '../components/enrolment-token';
import { GatewayNotFound, isGatewayMissing } from '../components/gateway-not-found';
import {
  GatewayStatusBadge,
  PolicyStateBadge,
  useKindLabels,
  useRegionText,
  useUpgradeStateLabels,
} from '../components/labels';
import { PolicyBundlesButton } from '../components/policy-bundles-button';
import { RenameModal } from '../components/rename-modal';
import { UpgradeModal } from '../components/upgrade-modal';
import { formatUptime, isSiteKind, policyStateOf } from '../utils/gateway-facts';

/** A section of the screen: a bordered panel with an h2 that names it. */
function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper component="section" withBorder p="md" radius="sm" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** A monospace value, or a dimmed dash (or `emptyText`) when there is none. */
function Value({
  value,
  isCode = false,
  emptyText = '—',
}: {
  value: string | null;
  isCode?: boolean;
  emptyText?: string;
}) {
  if (value === null || value === '') {
    return (
      <Text span size="sm" c="dimmed">
        {emptyText}
      </Text>
    );
  }
  return (
    <Text span size="sm" ff={isCode ? 'monospace' : undefined} style={{ wordBreak: 'break-all' }}>
      {value}
    </Text>
  );
}

/** A load percentage as a labelled progress bar with its number beside it. */
function LoadBar({ label, percent }: { label: string; percent: number }) {
  const { i18n } = useTranslation();
  const value = Math.round(percent);
  const text = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language, {
    style: 'percent',
    maximumFractionDigits: 0,
  }).format(value / 100);
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm">{text}</Text>
      </Group>
      <Progress
        value={value}
        aria-label={label}
        color={value >= 90 ? 'red' : value >= 70 ? 'yellow' : 'blue'}
        size="lg"
      />
    </Stack>
  );
}

/** The policy the gateway enforces against the one it should, with the indicator and what it means. */
function PolicySection({ gateway, tenant }: { gateway: Gateway; tenant: string }) {
  const { t } = useTranslation();
  const state = policyStateOf(gateway);
  const explanations = {
    current: t('gateways.policy.currentText', 'It enforces the tenant’s current policy.'),
    behind: t(
      'gateways.policy.behindText',
      'It enforces an older policy version. It normally catches up within a minute.',
    ),
    drifting: t(
      'gateways.policy.driftingText',
      'It has stayed behind the current policy for too long. Check that it is online and can reach the console.',
    ),
    none:
      gateway.status === 'retired'
        ? t('gateways.policy.noneRetired', 'A retired gateway enforces no policy.')
        : gateway.enrolledAt === null
          ? t('gateways.policy.noneEnrolment', 'It receives the policy once it has enrolled.')
          : t('gateways.policy.noneBundle', 'The tenant has no compiled policy yet.'),
  };
  return (
    <Section title={t('gateways.view.policy', 'Policy')}>
      <Stack gap="sm">
        <Group gap="sm">
          <PolicyStateBadge state={state} />
          <Text size="sm">{explanations[state]}</Text>
        </Group>
        <DetailList
          items={[
            {
              label: t('gateways.view.enforcedVersion', 'Enforced policy version'),
              value: <Value value={gateway.enforcedVersion} isCode />,
            },
            {
              label: t('gateways.view.enforcedAt', 'Enforced since'),
              value: <RelativeTime value={gateway.enforcedAt} empty={t('gateways.never', 'Never')} />,
            },
            {
              label: t('gateways.view.currentVersion', 'Current policy version'),
              value: <Value value={gateway.currentVersion} isCode />,
            },
          ]}
        />
        <Group gap="sm" wrap="wrap">
          <PolicyBundlesButton tenant={tenant} size="compact-sm" />
          <Text size="xs" c="dimmed">
            {t(
              'gateways.view.bundlesHint',
              'The bundle versions are the tenant’s: every gateway enforces the same one. Compare them or roll back there.',
            )}
          </Text>
        </Group>
      </Stack>
    </Section>
  );
}

/** The upgrade asked for, with its state. */
function UpgradeSection({ upgrade }: { upgrade: NonNullable<Gateway['upgrade']> }) {
  const { t } = useTranslation();
  const labels = useUpgradeStateLabels();
  const colors = { pending: 'blue', done: 'green', timedOut: 'red' } as const;
  return (
    <Section title={t('gateways.view.upgrade', 'Upgrade')}>
      <Stack gap="sm">
        <DetailList
          items={[
            {
              label: t('gateways.view.targetVersion', 'Target version'),
              value: <Value value={upgrade.targetVersion} isCode />,
            },
            {
              label: t('gateways.view.requestedAt', 'Requested'),
              value: <RelativeTime value={upgrade.requestedAt} />,
            },
            {
              label: t('gateways.view.upgradeState', 'State'),
              value: (
                <Badge color={colors[upgrade.state]} variant="light" radius="sm">
                  {labels[upgrade.state]}
                </Badge>
              ),
            },
          ]}
        />
        {upgrade.state === 'timedOut' ? (
          <Text size="sm" c="red">
            {t(
              'gateways.view.upgradeTimedOut',
              'The gateway did not report the new version within 15 minutes. Check it, then request the upgrade again.',
            )}
          </Text>
        ) : null}
      </Stack>
    </Section>
  );
}

/**
 * `/cybernodes/view?id=…`: one gateway, refreshed every heartbeat while the tab is visible — its status,
 * identity, load, the policy version it enforces against the current one, and a pending upgrade. Rename,
 * rotate credentials, upgrade and retire as the administrator's permissions allow; a retired gateway shows as
 * such, without actions.
 */
export function Component() {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id') ?? '';
  const isId = Uuid.safeParse(id).success;
  const tenant = useWorkingTenant();
  const canUpdate = useCan('gateways:update');
  const canDelete = useCan('gateways:delete');
  const kindLabels = useKindLabels();
  const regionText = useRegionText();

  const [dialog, setDialog] = useState<'rename' | 'upgrade' | 'rotate' | 'retire' | null>(null);
  const [newToken, setNewToken] = useState<GatewayCreatedAnswer | null>(null);
  const gatewayQuery = useGateway(tenant, id, isId);
  const rotate = useRotateGatewayCredentials(tenant, id, {
    onSuccess: (answer) => {
      setDialog(null);
      setNewToken(answer);
    },
  });
  const retire = useRetireGateway(tenant, id, {
    onSuccess: (gateway) => {
      setDialog(null);
      showSuccess(t('gateways.retire.done', 'Gateway “{{name}}” retired.', { name: gateway.name }));
    },
  });

  if (!isId) return <GatewayNotFound />;
  if (gatewayQuery.isPending) return <LoadingState label={t('gateways.view.loading', 'Loading gateway…')} />;
  if (gatewayQuery.isError && isGatewayMissing(gatewayQuery.error)) return <GatewayNotFound />;
  if (gatewayQuery.isError && !gatewayQuery.data) {
    return <ErrorState error={gatewayQuery.error} onRetry={() => void gatewayQuery.refetch()} />;
  }
  const gateway = gatewayQuery.data;
  const isRetired = gateway.status === 'retired';
  const metrics = gateway.metrics;
  const regionLabel = isSiteKind(gateway.kind)
    ? t('gateways.view.site', 'Site / location')
    : t('gateways.view.region', 'Region');
  const count = (n: number) => formatNumber(n, locale);

  return (
    <>
      <PageHeader
        title={gateway.name}
        badge={<GatewayStatusBadge status={gateway.status} />}
        description={`${kindLabels[gateway.kind]} · ${regionText(gateway.region)}`}
        actions={
          <>
            <Button component={Link} to="/cybernodes/list" variant="default">
              {t('gateways.backToList', 'Back to gateways')}
            </Button>
            {canUpdate && !isRetired ? (
              <>
                <Button variant="default" onClick={() => setDialog('rename')}>
                  {t('gateways.view.rename', 'Rename')}
                </Button>
                <Button variant="default" onClick={() => setDialog('rotate')}>
                  {t('gateways.view.rotate', 'Rotate credentials')}
                </Button>
                <Button variant="default" onClick={() => setDialog('upgrade')}>
                  {t('gateways.view.upgradeAction', 'Upgrade')}
                </Button>
              </>
            ) : null}
            {canDelete && !isRetired ? (
              <Button color="red" variant="light" onClick={() => setDialog('retire')}>
                {t('gateways.view.retire', 'Retire')}
              </Button>
            ) : null}
          </>
        }
      />
      <Stack gap="md">
        {gatewayQuery.isError ? (
          <ErrorState error={gatewayQuery.error} onRetry={() => void gatewayQuery.refetch()} />
        ) : null}
        {isRetired ? (
          <Alert color="gray" title={t('gateways.view.retiredTitle', 'This gateway is retired')}>
            {t(
              'gateways.view.retiredText',
              'Its credential no longer works and it receives no policy. It is kept here for the record.',
            )}
          </Alert>
        ) : null}
        {gateway.status === 'pending' ? (
          <Alert color="blue" title={t('gateways.view.pendingTitle', 'Waiting for enrolment')}>
            {t(
              'gateways.view.pendingText',
              'Run the install command with its enrolment token on the gateway. If the token is lost or expired, rotate the credentials for a new one.',
            )}
          </Alert>
        ) : null}
        <Section title={t('gateways.view.overview', 'Overview')}>
          <DetailList
            items={[
              {
                label: t('gateways.view.status', 'Status'),
                value: <GatewayStatusBadge status={gateway.status} />,
              },
              { label: t('gateways.view.kind', 'Kind'), value: kindLabels[gateway.kind] },
              { label: regionLabel, value: regionText(gateway.region) },
              {
                label: t('gateways.view.serverName', 'Server name'),
                value: <Value value={gateway.serverName} />,
              },
              {
                label: t('gateways.view.hostname', 'Hostname'),
                value: <Value value={gateway.hostname} isCode />,
              },
              {
                label: t('gateways.view.version', 'Software version'),
                value: <Value value={gateway.version} isCode />,
              },
              {
                label: t('gateways.view.uptime', 'Uptime'),
                value: <Value value={metrics ? formatUptime(metrics.uptimeSeconds, locale) : null} />,
              },
              {
                label: t('gateways.view.lastSeen', 'Last seen'),
                value: <RelativeTime value={gateway.lastSeenAt} empty={t('gateways.never', 'Never')} />,
              },
              {
                label: t('gateways.view.endpoint', 'Endpoint for devices'),
                value: (
                  <Value
                    value={gateway.endpoint}
                    isCode
                    emptyText={t('gateways.view.noEndpoint', 'Not reported yet')}
                  />
                ),
              },
              {
                label: t('gateways.view.tunnel', 'Tunnel network'),
                value: <Value value={gateway.address} isCode />,
              },
              {
                label: t('gateways.view.listenPort', 'WireGuard port'),
                value: (
                  <Value value={gateway.listenPort === null ? null : String(gateway.listenPort)} isCode />
                ),
              },
            ]}
          />
        </Section>
        <Section title={t('gateways.view.load', 'Load')}>
          {metrics ? (
            <Stack gap="md">
              <LoadBar label={t('gateways.view.cpu', 'CPU')} percent={metrics.cpuPercent} />
              <LoadBar label={t('gateways.view.memory', 'Memory')} percent={metrics.memoryPercent} />
              <DetailList
                items={[
                  {
                    label: t('gateways.view.throughput', 'Throughput'),
                    value: formatThroughput(metrics.throughputBps, locale),
                  },
                  {
                    label: t('gateways.view.activePeers', 'Active tunnels'),
                    value: count(metrics.activePeers),
                  },
                  {
                    label: t('gateways.view.connectedUsers', 'Connected users'),
                    value: count(metrics.connectedUsers),
                  },
                  ...(metrics.decisionEventsDropped === undefined
                    ? []
                    : [
                        {
                          label: t('gateways.view.eventsDropped', 'Decision events lost'),
                          value:
                            metrics.decisionEventsDropped === 0 ? (
                              t('gateways.view.eventsDroppedNone', 'None')
                            ) : (
                              <Text size="sm" c="red.8" fw={600}>
                                {t('gateways.view.eventsDroppedSome', {
                                  count: metrics.decisionEventsDropped,
                                })}
                              </Text>
                            ),
                        },
                      ]),
                ]}
              />
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              {t('gateways.view.noMetrics', 'The gateway has not reported its load yet.')}
            </Text>
          )}
        </Section>
        <PolicySection gateway={gateway} tenant={tenant} />
        {gateway.upgrade ? <UpgradeSection upgrade={gateway.upgrade} /> : null}
      </Stack>
      {dialog === 'rename' ? (
        <RenameModal gateway={gateway} tenant={tenant} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'upgrade' ? (
        <UpgradeModal gateway={gateway} tenant={tenant} onClose={() => setDialog(null)} />
      ) : null}
      <ConfirmModal
        opened={dialog === 'rotate'}
        title={t('gateways.rotate.title', 'Rotate the credentials of “{{name}}”?', { name: gateway.name })}
        message={t(
          'gateways.rotate.message',
          'Its current credential stops working at once. The gateway goes offline until it enrols again with the new one-time token.',
        )}
        confirmLabel={t('gateways.rotate.confirm', 'Rotate credentials')}
        isBusy={rotate.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() => rotate.mutate()}
      />
      <ConfirmModal
        opened={dialog === 'retire'}
        title={t('gateways.retire.title', 'Retire “{{name}}”?', { name: gateway.name })}
        message={t(
          'gateways.retire.message',
          'Its credential stops working at once and it no longer receives the policy. This cannot be undone.',
        )}
        confirmLabel={t('gateways.retire.confirm', 'Retire gateway')}
        isDestructive
        isBusy={retire.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() => retire.mutate()}
      />
      <ModalToken answer={newToken} onDone={() => setNewToken(null)} />
    </>
  );
}

/** The new one-time token after a rotation, in its own dialog until the administrator says it is stored. */
function ModalToken({ answer, onDone }: { answer: GatewayCreatedAnswer | null; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={answer !== null}
      onClose={onDone}
      title={t('gateways.rotate.tokenTitle', 'New enrolment token')}
      size="lg"
      centered
    >
      {answer ? <EnrolmentToken answer={answer} onDone={onDone} /> : null}
    </Modal>
  );
}
