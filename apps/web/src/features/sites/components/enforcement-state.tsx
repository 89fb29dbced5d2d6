import { Badge, Group, Stack, Text } from '@mantine/core';
import type { SiteConfigView } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { type DetailItem, DetailList } from '../../../components/ui/detail-list';
import { GatewayStatusBadge } from '../../../components/ui/gateway-status';
import { RelativeTime } from '../../../components/ui/relative-time';

/** A bundle version in monospace, or a dimmed "none". */
function Version({ value }: { value: string | null }) {
  const { t } = useTranslation();
  if (value === null) {
    return (
      <Text span size="sm" c="dimmed">
        {t('sites.state.noVersion', 'None yet')}
      </Text>
    );
  }
  return (
    <Text span size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
      {value}
    </Text>
  );
}

/** When the configuration was saved: relative, with the full time as its title; "never" for the default. */
function SavedAt({ iso }: { iso: string | null }) {
  const { t } = useTranslation();
  return (
    <RelativeTime
      value={iso}
      empty={t('sites.state.neverSaved', 'Never (the default: DHCP on the WAN, nothing else)')}
    />
  );
}

/**
 * Whether the gateway enforces the saved configuration: the version of its bundle that carries it against the
 * version the gateway reports enforcing, in words that say what happens next for the gateway's status.
 */
export function EnforcementState({ view }: { view: SiteConfigView }) {
  const { t } = useTranslation();
  const explanation = view.isApplied
    ? t('sites.state.appliedText', 'The gateway enforces the saved configuration.')
    : view.status === 'retired'
      ? t('sites.state.retiredText', 'The gateway is retired: it takes up no configuration.')
      : view.status === 'pending'
        ? t(
            'sites.state.pendingText',
            'The gateway has not enrolled yet: it takes up the configuration with its first bundle.',
          )
        : view.status === 'offline'
          ? t(
              'sites.state.offlineText',
              'The gateway is offline: it takes up the saved configuration when it is back online.',
            )
          : t(
              'sites.state.onlineText',
              'The gateway has not taken up the saved configuration yet. It normally does within seconds.',
            );
  const items: DetailItem[] = [
    { label: t('sites.state.status', 'Gateway status'), value: <GatewayStatusBadge status={view.status} /> },
    { label: t('sites.state.savedAt', 'Last saved'), value: <SavedAt iso={view.updatedAt} /> },
    {
      label: t('sites.state.currentVersion', 'Bundle with this configuration'),
      value: <Version value={view.currentVersion} />,
    },
    {
      label: t('sites.state.appliedVersion', 'Bundle the gateway enforces'),
      value: <Version value={view.appliedVersion} />,
    },
  ];
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Badge
          color={view.isApplied ? 'green' : view.status === 'retired' ? 'gray' : 'yellow'}
          variant="light"
          radius="sm"
          miw="max-content"
        >
          {view.isApplied
            ? t('sites.state.applied', 'Enforced')
            : t('sites.state.notApplied', 'Not enforced yet')}
        </Badge>
        <Text size="sm" role="status">
          {explanation}
        </Text>
      </Group>
      <DetailList items={items} />
    </Stack>
  );
}
