import { Alert, Anchor, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { type SiteConfigView, Uuid } from '@palisade/contracts';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { DetailList } from '../../../components/ui/detail-list';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { formatNumber } from '../../../lib/i18n';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { isSiteGatewayMissing, useSiteConfig } from '../api/get-site-config';
import { useSiteGateways } from '../api/get-site-gateways';
import { useSaveSiteConfig } from '../api/put-site-config';
import { SiteNotFound } from '../components/site-not-found';
import { configOf } from '../utils/site-form';

/** The copy variant of `/device/:id/:type` (spec §2); other types are not screens. */
export const COPY_TYPE = 'copy';

/** A device's page, where a site gateway's configuration is edited. */
const devicePath = (id: string) => `/devices/${encodeURIComponent(id)}`;

/** A bordered section with an h2 that names it (a landmark region). */
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

/** What the copy carries: how many rows of each kind, and the WAN. */
function CopiedSummary({ source }: { source: SiteConfigView }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const count = (n: number) => formatNumber(n, locale);
  const ip = source.wan.ips[0];
  const wan =
    source.wan.mode === 'static' && ip
      ? t('sites.copy.wanStatic', 'Static address {{address}}', { address: `${ip.address}/${ip.prefix}` })
      : t('sites.copy.wanDhcp', 'DHCP');
  return (
    <DetailList
      items={[
        { label: t('sites.tabs.lans', 'LAN'), value: count(source.lans.length) },
        { label: t('sites.tabs.vlans', 'VLANs'), value: count(source.vlans.length) },
        { label: t('sites.tabs.wan', 'WAN'), value: wan },
        { label: t('sites.tabs.portForwards', 'Port forwards'), value: count(source.portForwards.length) },
        { label: t('sites.tabs.trafficFlows', 'Traffic flows'), value: count(source.trafficFlows.length) },
      ]}
    />
  );
}

/** The choice of the site gateway to copy to: every other site gateway of the tenant that is not retired. */
function TargetPicker({
  tenant,
  sourceId,
  value,
  onChange,
}: {
  tenant: string;
  sourceId: string;
  value: string | null;
  onChange: (id: string | null, name: string | null) => void;
}) {
  const { t } = useTranslation();
  const gateways = useSiteGateways(tenant);
  if (gateways.isPending)
    return <LoadingState label={t('sites.copy.loadingTargets', 'Loading site gateways…')} />;
  if (gateways.isError) return <ErrorState error={gateways.error} onRetry={() => void gateways.refetch()} />;
  const targets = gateways.data.items.filter(
    (gateway) => gateway.id !== sourceId && gateway.status !== 'retired',
  );
  if (targets.length === 0) {
    return (
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('sites.copy.noTargets', 'There is no other site gateway to copy to.')}</Text>
        <Anchor component={Link} to="/devices/new/add" size="sm">
          {t('sites.copy.addGateway', 'Add a site gateway')}
        </Anchor>
      </Stack>
    );
  }
  const data = targets.map((gateway) => ({
    value: gateway.id,
    label: gateway.region ? `${gateway.name} · ${gateway.region}` : gateway.name,
  }));
  return (
    <Stack gap={4}>
      <Select
        label={t('sites.copy.target', 'Target site gateway')}
        description={t('sites.copy.targetHint', 'Its own configuration is replaced by the copy.')}
        placeholder={t('sites.copy.choose', 'Choose a site gateway')}
        data={data}
        value={value}
        onChange={(id) => onChange(id, targets.find((gateway) => gateway.id === id)?.name ?? null)}
        searchable
        nothingFoundMessage={t('sites.copy.nothingFound', 'No site gateway matches.')}
        required
        maw={480}
      />
      {gateways.data.nextCursor !== null ? (
        <Text size="xs" c="dimmed">
          {t('sites.copy.truncated', 'The first {{count, number}} site gateways by name are offered.', {
            count: gateways.data.items.length,
          })}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * `/device/:id/copy`: copies a site gateway's configuration to another site gateway. Shows what is copied, lets
 * the administrator pick the target among the tenant's other site gateways and, after a confirmation (the
 * target's configuration is replaced), saves it there and opens the target's device page.
 */
export function Component() {
  const { t } = useTranslation();
  const { id = '', type } = useParams();
  const navigate = useNavigate();
  const tenant = useWorkingTenant();
  const canUpdate = useCan('gateways:update');
  const isScreen = type === COPY_TYPE && Uuid.safeParse(id).success;
  const source = useSiteConfig(tenant, id, isScreen && canUpdate);
  const [target, setTarget] = useState<{ id: string; name: string } | null>(null);
  const [isConfirming, setConfirming] = useState(false);
  const save = useSaveSiteConfig(tenant, {
    onSuccess: (saved) => {
      setConfirming(false);
      showSuccess(
        t('sites.copy.done', 'The configuration of “{{source}}” was copied to “{{target}}”.', {
          source: source.data?.name ?? '',
          target: saved.name,
        }),
      );
      navigate(devicePath(saved.gatewayId));
    },
    onError: (error) => {
      setConfirming(false);
      showMutationError(t, error, { title: t('sites.copy.failed', 'The configuration was not copied') });
    },
  });

  if (!isScreen) return <SiteNotFound />;
  const header = (description?: string) => (
    <PageHeader
      title={t('sites.copy.title', 'Copy site configuration')}
      description={description}
      actions={
        <Button component={Link} to={devicePath(id)} variant="default">
          {t('sites.copy.back', 'Back to the gateway')}
        </Button>
      }
    />
  );
  if (!canUpdate) {
    return (
      <>
        {header()}
        <Alert color="yellow" variant="light" title={t('sites.copy.notAllowedTitle', 'Not available')}>
          {t('error.3', 'Your role does not allow this.')}
        </Alert>
      </>
    );
  }
  if (source.isPending) return <LoadingState label={t('sites.loading', 'Loading the site configuration…')} />;
  if (source.isError && isSiteGatewayMissing(source.error)) return <SiteNotFound />;
  if (source.isError && !source.data) {
    return <ErrorState error={source.error} onRetry={() => void source.refetch()} />;
  }
  const view = source.data;

  return (
    <>
      {header(
        t('sites.copy.description', 'Copies the configuration of “{{name}}” to another site gateway.', {
          name: view.name,
        }),
      )}
      <Stack gap="md" maw={860}>
        <Section title={t('sites.copy.what', 'What is copied')}>
          <Stack gap="sm">
            <CopiedSummary source={view} />
            {view.wan.mode === 'static' ? (
              <Alert color="yellow" variant="light">
                {t(
                  'sites.copy.staticWan',
                  'The static WAN address is copied as it is. Change it on the target when the target has its own.',
                )}
              </Alert>
            ) : null}
          </Stack>
        </Section>
        <Section title={t('sites.copy.to', 'Copy to')}>
          <Stack gap="md" align="flex-start">
            <TargetPicker
              tenant={tenant}
              sourceId={view.gatewayId}
              value={target?.id ?? null}
              onChange={(targetId, name) => setTarget(targetId && name ? { id: targetId, name } : null)}
            />
            <Group gap="sm">
              <Button disabled={target === null} onClick={() => setConfirming(true)}>
                {t('sites.copy.submit', 'Copy configuration')}
              </Button>
            </Group>
          </Stack>
        </Section>
      </Stack>
      <ConfirmModal
        opened={isConfirming && target !== null}
        title={t('sites.copy.confirmTitle', 'Replace the configuration of “{{name}}”?', {
          name: target?.name ?? '',
        })}
        message={t(
          'sites.copy.confirmMessage',
          'Its LANs, VLANs, WAN, port forwards and traffic flows are replaced by those of “{{source}}”. The gateway receives them with its next bundle.',
          { source: view.name },
        )}
        confirmLabel={t('sites.copy.confirm', 'Replace configuration')}
        isDestructive
        isBusy={save.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          if (target) save.mutate({ gatewayId: target.id, config: configOf(view) });
        }}
      />
    </>
  );
}
