import 'mantine-datatable/styles.css';
import { Badge, Button, Code, Group, Text } from '@mantine/core';
import type { DeploymentKey } from '@palisade/contracts';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../../../components/ui/relative-time';
import { useFormatters } from '../../../lib/format-time';
import { type KeyStatus, keyStatus } from './key-status';

const STATUS_COLORS: Record<KeyStatus, string> = {
  active: 'green',
  expired: 'gray',
  exhausted: 'orange',
  revoked: 'red',
};

/** Props of {@link DeploymentKeysTable}. */
export interface DeploymentKeysTableProps {
  keys: DeploymentKey[];
  isFetching?: boolean;
  /** Shows "Revoke" on keys that still work; omit without the delete right. */
  onRevoke?: (key: DeploymentKey) => void;
}

/** The tenant's deployment keys: name and prefix, auto-groups, uses, expiry, last use and status. */
export function DeploymentKeysTable({ keys, isFetching = false, onRevoke }: DeploymentKeysTableProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const numberFormat = new Intl.NumberFormat(format.locale);
  const statusLabels: Record<KeyStatus, string> = {
    active: t('devices.keys.status.active', 'Active'),
    expired: t('devices.keys.status.expired', 'Expired'),
    exhausted: t('devices.keys.status.exhausted', 'Used up'),
    revoked: t('devices.keys.status.revoked', 'Revoked'),
  };

  const columns: DataTableColumn<DeploymentKey>[] = [
    {
      accessor: 'name',
      title: t('devices.keys.columns.name', 'Name'),
      render: (key) => (
        <Text size="sm" fw={500}>
          {key.name}
        </Text>
      ),
    },
    {
      accessor: 'prefix',
      title: t('devices.keys.columns.prefix', 'Prefix'),
      noWrap: true,
      render: (key) => <Code>{`${key.prefix}…`}</Code>,
    },
    {
      accessor: 'autoGroups',
      title: t('devices.keys.columns.autoGroups', 'Auto-groups'),
      render: (key) =>
        key.autoGroups.length ? (
          <Group gap={4}>
            {key.autoGroups.map((group) => (
              <Badge key={group.id} variant="outline" color="gray" radius="sm" tt="none">
                {group.name}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('devices.keys.noGroups', 'None')}
          </Text>
        ),
    },
    {
      accessor: 'uses',
      title: t('devices.keys.columns.uses', 'Uses / max'),
      noWrap: true,
      render: (key) =>
        key.maxUses === null
          ? t('devices.keys.usesUnlimited', '{{uses}} / unlimited', { uses: numberFormat.format(key.uses) })
          : `${numberFormat.format(key.uses)} / ${numberFormat.format(key.maxUses)}`,
    },
    {
      accessor: 'expiresAt',
      title: t('devices.keys.columns.expires', 'Expires'),
      noWrap: true,
      render: (key) =>
        key.expiresAt ? (
          <time dateTime={key.expiresAt}>{format.date(key.expiresAt)}</time>
        ) : (
          t('devices.keys.never', 'Never')
        ),
    },
    {
      accessor: 'lastUsedAt',
      title: t('devices.keys.columns.lastUsed', 'Last used'),
      noWrap: true,
      render: (key) =>
        key.lastUsedAt ? (
          <RelativeTime value={key.lastUsedAt} />
        ) : (
          <Text size="sm" c="dimmed" span>
            {t('devices.keys.notUsed', 'Not used yet')}
          </Text>
        ),
    },
    {
      accessor: 'status',
      title: t('devices.keys.columns.status', 'Status'),
      noWrap: true,
      render: (key) => {
        const status = keyStatus(key);
        return (
          <Badge color={STATUS_COLORS[status]} variant="light" radius="sm" miw="max-content">
            {statusLabels[status]}
          </Badge>
        );
      },
    },
    {
      accessor: 'actions',
      title: t('devices.keys.columns.actions', 'Actions'),
      hidden: !onRevoke,
      textAlign: 'right',
      render: (key) =>
        onRevoke && !key.revokedAt ? (
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={() => onRevoke(key)}
            aria-label={t('devices.keys.revokeLabel', 'Revoke {{name}}', { name: key.name })}
          >
            {t('devices.keys.revoke', 'Revoke')}
          </Button>
        ) : null,
    },
  ];

  return (
    <DataTable<DeploymentKey>
      withTableBorder
      borderRadius="sm"
      minHeight={keys.length ? undefined : 160}
      records={keys}
      columns={columns}
      idAccessor="id"
      fetching={isFetching}
      noRecordsText={t('devices.keys.empty', 'No deployment keys yet.')}
      aria-label={t('devices.keys.tableLabel', 'Deployment keys')}
    />
  );
}
