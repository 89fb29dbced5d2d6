import { Anchor, Group, Text } from '@mantine/core';
import type { DeviceListItem } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ListColumn } from '../../../components/list/column-choice';
import { RelativeTime } from '../../../components/ui/relative-time';
import { ConfigOutdatedBadge } from './config-download';
import {
  DeviceStateBadge,
  DeviceStatusWithLastSeen,
  Mono,
  PostureBadge,
  useDeviceKindLabels,
} from './inventory-labels';
import { OsLabel } from './os-label';

/** The address of one device's page. */
export function devicePath(id: string): string {
  return `/devices/${encodeURIComponent(id)}`;
}

/**
 * The columns of the device list: the name (a link to its page, kept in view), owner, OS type, status with when it
 * was last seen, state, agent version, posture, the version it enforces, tunnel address and key expiry; when it
 * enrolled is offered in the column chooser. Phones keep the name, the status and the state.
 */
export function useDeviceColumns(): ListColumn<DeviceListItem>[] {
  const { t } = useTranslation();
  const kindLabels = useDeviceKindLabels();
  return [
    {
      accessor: 'name',
      title: t('devices.columns.name', 'Name'),
      sortable: true,
      isAlwaysShown: true,
      isEssential: true,
      render: (device) => (
        <Anchor component={Link} to={devicePath(device.id)} fw={500}>
          {device.name}
        </Anchor>
      ),
    },
    {
      accessor: 'username',
      title: t('devices.columns.owner', 'Owner'),
      render: (device) =>
        device.kind === 'site' ? (
          <Text span size="sm" c="dimmed">
            {kindLabels.site}
          </Text>
        ) : device.username && device.userId ? (
          <Anchor component={Link} to={`/users/${device.userId}`} size="sm">
            {device.username}
          </Anchor>
        ) : (
          <Text span size="sm" c="dimmed">
            {t('devices.inventory.noOwner', 'No user')}
          </Text>
        ),
    },
    {
      accessor: 'os',
      title: t('devices.columns.osType', 'OS type'),
      sortable: true,
      noWrap: true,
      render: (device) => <OsLabel os={device.os} />,
    },
    {
      // Sorted by when it was last seen: the status follows from it.
      accessor: 'lastSeenAt',
      title: t('devices.columns.status', 'Status'),
      label: t('devices.columns.statusLabel', 'Status and last seen'),
      sortable: true,
      isEssential: true,
      noWrap: true,
      render: (device) => <DeviceStatusWithLastSeen status={device.status} lastSeenAt={device.lastSeenAt} />,
    },
    {
      accessor: 'state',
      title: t('devices.columns.deviceState', 'State'),
      isEssential: true,
      render: (device) =>
        device.configOutdated === true ? (
          <Group gap={4} wrap="nowrap">
            <DeviceStateBadge state={device.state} kind={device.kind} />
            <ConfigOutdatedBadge />
          </Group>
        ) : (
          <DeviceStateBadge state={device.state} kind={device.kind} />
        ),
    },
    {
      accessor: 'agentVersion',
      title: t('devices.columns.agentVersion', 'Agent version'),
      render: (device) => <Mono value={device.agentVersion} />,
    },
    {
      accessor: 'posture',
      title: t('devices.columns.posture', 'Posture'),
      render: (device) => <PostureBadge posture={device.posture} />,
    },
    {
      accessor: 'enforcedVersion',
      title: t('devices.columns.enforcedVersion', 'Enforced version'),
      render: (device) => <Mono value={device.enforcedVersion} />,
    },
    {
      accessor: 'address',
      title: t('devices.columns.address', 'Tunnel address'),
      render: (device) => <Mono value={device.address} />,
    },
    {
      accessor: 'keyExpiresAt',
      title: t('devices.columns.keyExpiry', 'Key expiry'),
      noWrap: true,
      render: (device) => <RelativeTime value={device.keyExpiresAt} />,
    },
    {
      accessor: 'enrolledAt',
      title: t('devices.columns.enrolledAt', 'Enrolled'),
      sortable: true,
      isHiddenByDefault: true,
      noWrap: true,
      render: (device) => <RelativeTime value={device.enrolledAt} />,
    },
  ];
}
