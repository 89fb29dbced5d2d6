import { Anchor, Group, Text } from '@mantine/core';
import type { Gateway } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ListColumn } from '../../../components/list/column-choice';
import { RelativeTime } from '../../../components/ui/relative-time';
import { policyStateOf } from '../utils/gateway-facts';
import { GatewayStatusBadge, PolicyStateBadge, useKindLabels, useRegionText } from './labels';

/** The address of one gateway's screen. */
export function gatewayPath(id: string): string {
  return `/cybernodes/view?id=${encodeURIComponent(id)}`;
}

/** A version in monospace, or a dash. */
function VersionText({ version }: { version: string | null }) {
  return version ? (
    <Text span size="sm" ff="monospace">
      {version}
    </Text>
  ) : (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
}

/**
 * The columns of the gateways list: the name (a link to its screen, kept in view), kind, region, status,
 * software version, the policy version it enforces with a "behind"/"drifting" badge, and when it was last
 * heard from. Phones keep the name, the status and the policy state. `isKindShown` is false on a list of one
 * kind.
 */
export function useGatewayColumns({ isKindShown }: { isKindShown: boolean }): ListColumn<Gateway>[] {
  const { t } = useTranslation();
  const kindLabels = useKindLabels();
  const regionText = useRegionText();
  return [
    {
      accessor: 'name',
      title: t('gateways.columns.name', 'Name'),
      sortable: true,
      isAlwaysShown: true,
      isEssential: true,
      render: (gateway) => (
        <Anchor component={Link} to={gatewayPath(gateway.id)} fw={500}>
          {gateway.name}
        </Anchor>
      ),
    },
    {
      accessor: 'kind',
      title: t('gateways.columns.kind', 'Kind'),
      hidden: !isKindShown,
      render: (gateway) => kindLabels[gateway.kind],
    },
    {
      accessor: 'region',
      title: t('gateways.columns.region', 'Region / site'),
      sortable: true,
      render: (gateway) => regionText(gateway.region),
    },
    {
      accessor: 'status',
      title: t('gateways.columns.status', 'Status'),
      sortable: true,
      isEssential: true,
      render: (gateway) => <GatewayStatusBadge status={gateway.status} />,
    },
    {
      accessor: 'version',
      title: t('gateways.columns.version', 'Version'),
      render: (gateway) => <VersionText version={gateway.version} />,
    },
    {
      accessor: 'enforcedVersion',
      title: t('gateways.columns.policy', 'Policy version'),
      isEssential: true,
      render: (gateway) => (
        <Group gap="xs" wrap="nowrap">
          <VersionText version={gateway.enforcedVersion} />
          <PolicyStateBadge state={policyStateOf(gateway)} isShort />
        </Group>
      ),
    },
    {
      accessor: 'lastSeenAt',
      title: t('gateways.columns.lastSeen', 'Last seen'),
      sortable: true,
      noWrap: true,
      render: (gateway) => <RelativeTime value={gateway.lastSeenAt} empty={t('gateways.never', 'Never')} />,
    },
  ];
}
