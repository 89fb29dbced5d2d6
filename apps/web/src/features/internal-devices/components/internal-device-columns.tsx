import { Anchor } from '@mantine/core';
import type { InternalDevice } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ListColumn } from '../../../components/list/column-choice';
import { RelativeTime } from '../../../components/ui/relative-time';
import {
  ActivityBadge,
  gatewayDevicePath,
  internalDevicePath,
  Mono,
  OrUnknown,
  useSourceLabels,
} from './labels';

/**
 * The columns of the internal devices list: the host name (a link to its page, kept in view; a host without one
 * goes by its MAC address), IP and MAC address, vendor, the gateway it is behind (a link to its device page),
 * where it was seen, active or not, and when it was first and last seen. Phones keep the name, the address and
 * whether it is active.
 */
export function useInternalDeviceColumns(): ListColumn<InternalDevice>[] {
  const { t } = useTranslation();
  const sourceLabels = useSourceLabels();
  return [
    {
      accessor: 'hostname',
      title: t('internalDevices.columns.hostname', 'Host name'),
      sortable: true,
      isAlwaysShown: true,
      isEssential: true,
      render: (device) => (
        <Anchor
          component={Link}
          to={internalDevicePath(device.id)}
          fw={500}
          ff={device.hostname ? undefined : 'monospace'}
        >
          {device.hostname ?? device.mac}
        </Anchor>
      ),
    },
    {
      accessor: 'ip',
      title: t('internalDevices.columns.ip', 'IP address'),
      sortable: true,
      isEssential: true,
      noWrap: true,
      render: (device) => <Mono value={device.ip} />,
    },
    {
      accessor: 'mac',
      title: t('internalDevices.columns.mac', 'MAC address'),
      noWrap: true,
      render: (device) => <Mono value={device.mac} />,
    },
    {
      accessor: 'vendor',
      title: t('internalDevices.columns.vendor', 'Vendor'),
      render: (device) => <OrUnknown value={device.vendor} />,
    },
    {
      accessor: 'gatewayName',
      title: t('internalDevices.columns.gateway', 'Gateway'),
      render: (device) => (
        <Anchor component={Link} to={gatewayDevicePath(device.gatewayId)} size="sm">
          {device.gatewayName}
        </Anchor>
      ),
    },
    {
      accessor: 'source',
      title: t('internalDevices.columns.source', 'Seen in'),
      noWrap: true,
      render: (device) => sourceLabels[device.source],
    },
    {
      accessor: 'isActive',
      title: t('internalDevices.columns.status', 'Status'),
      isEssential: true,
      render: (device) => <ActivityBadge isActive={device.isActive} />,
    },
    {
      accessor: 'firstSeenAt',
      title: t('internalDevices.columns.firstSeen', 'First seen'),
      noWrap: true,
      render: (device) => <RelativeTime value={device.firstSeenAt} />,
    },
    {
      accessor: 'lastSeenAt',
      title: t('internalDevices.columns.lastSeen', 'Last seen'),
      sortable: true,
      noWrap: true,
      render: (device) => <RelativeTime value={device.lastSeenAt} />,
    },
  ];
}
