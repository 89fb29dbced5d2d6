import { useDataTablePagination } from '../../../components/ui/data-table-pagination';
import 'mantine-datatable/styles.css';
import { Anchor, Box, Button, Group, Stack, Text } from '@mantine/core';
import type { Device, UserDevices } from '@palisade/contracts';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RelativeTime } from '../../../components/ui/relative-time';
import { ConnStatusText, EnrolmentStateBadge, useMethodLabels } from './labels';
import { OsLabel } from './os-label';

/** Props of {@link UserDevicesTable}. */
export interface UserDevicesTableProps {
  rows: UserDevices[];
  /** Users matching the search and filter, across all pages. */
  total: number;
  /** 1-based page number. */
  page: number;
  pageSize: number;
  /** Agentless links and wording instead of client enrolment. */
  kind: 'link' | 'agentless';
  isFetching?: boolean;
  /** Shows "Send link"; omit without the create right. */
  onSendLink?: (user: UserDevices) => void;
  /** Shows "Revoke link" on pending links; omit without the delete right. */
  onRevokeLink?: (user: UserDevices) => void;
  /** Shows "Remove" on each device; omit without the delete right. */
  onRemoveDevice?: (device: Device, user: UserDevices) => void;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}

/** One device: its name and system, then status, how it enrolled, when, and when it was last seen. */
function DeviceItem({ device, onRemove }: { device: Device; onRemove?: (() => void) | undefined }) {
  const { t } = useTranslation();
  const methodLabels = useMethodLabels();
  return (
    <Box component="li" py={4}>
      <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="sm" wrap="wrap">
            <Text size="sm" fw={500} span>
              {device.name}
            </Text>
            <OsLabel os={device.os} />
          </Group>
          <Text size="xs" c="dimmed">
            <ConnStatusText status={device.connstatus} />
            {' · '}
            {t('devices.device.via', 'via {{method}}', { method: methodLabels[device.enrolledVia] })}
            {' · '}
            {t('devices.device.enrolled', 'enrolled')} <RelativeTime value={device.enrolledAt} />
            {' · '}
            {device.lastSeenAt ? (
              <>
                {t('devices.device.lastSeen', 'last seen')} <RelativeTime value={device.lastSeenAt} />
              </>
            ) : (
              t('devices.device.neverSeen', 'not seen yet')
            )}
          </Text>
        </Stack>
        {onRemove ? (
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            style={{ flexShrink: 0 }}
            onClick={onRemove}
            aria-label={t('devices.device.removeLabel', 'Remove device {{name}}', { name: device.name })}
          >
            {t('devices.device.remove', 'Remove')}
          </Button>
        ) : null}
      </Group>
    </Box>
  );
}

/** The latest link of a user: its prefix and when it expires (or expired, or was used). */
function LinkSummary({ link }: { link: NonNullable<UserDevices['link']> }) {
  const { t } = useTranslation();
  const isExpired = Date.parse(link.expiresAt) <= Date.now();
  return (
    <Text size="xs" c="dimmed">
      <Text span ff="monospace" size="xs">{`${link.prefix}…`}</Text>{' '}
      {link.usedAt ? (
        <>
          {t('devices.link.used', 'used')} <RelativeTime value={link.usedAt} />
        </>
      ) : isExpired ? (
        <>
          {t('devices.link.expiredAt', 'expired')} <RelativeTime value={link.expiresAt} />
        </>
      ) : (
        <>
          {t('devices.link.expiresAt', 'expires')} <RelativeTime value={link.expiresAt} />
        </>
      )}
    </Text>
  );
}

/**
 * The users-and-devices table: a row per end user with the enrolment state, the user's connection status,
 * the devices and the link actions; server-paged.
 */
export function UserDevicesTable({
  rows,
  total,
  page,
  pageSize,
  kind,
  isFetching = false,
  onSendLink,
  onRevokeLink,
  onRemoveDevice,
  onPageChange,
  onPageSizeChange,
}: UserDevicesTableProps) {
  const { t } = useTranslation();
  const pagination = useDataTablePagination();
  const hasActions = Boolean(onSendLink || onRevokeLink);

  const columns: DataTableColumn<UserDevices>[] = [
    {
      accessor: 'username',
      title: t('devices.columns.user', 'User'),
      noWrap: true,
      render: (row) => (
        <Stack gap={0}>
          <Anchor component={Link} to={`/users/${row.id}`} fw={500} size="sm">
            {row.fullname || row.username}
          </Anchor>
          <Text size="xs" c="dimmed">
            {row.username}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'state',
      title: t('devices.columns.state', 'Enrolment'),
      render: (row) => (
        <Stack gap={4} align="flex-start">
          <EnrolmentStateBadge state={row.state} />
          {row.link ? <LinkSummary link={row.link} /> : null}
        </Stack>
      ),
    },
    {
      accessor: 'connstatus',
      title: t('devices.columns.connstatus', 'Connection status'),
      noWrap: true,
      render: (row) => <ConnStatusText status={row.connstatus} />,
    },
    {
      accessor: 'devices',
      title: t('devices.columns.devices', 'Devices'),
      // The devices take the room the other, fixed-content columns leave; the table scrolls sideways before
      // their lines get cramped.
      width: '100%',
      cellsStyle: () => ({ minWidth: 340 }),
      render: (row) =>
        row.devices.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('devices.device.none', 'No devices')}
          </Text>
        ) : (
          <Box
            component="ul"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-label={t('devices.device.listLabel', 'Devices of {{name}}', {
              name: row.fullname || row.username,
            })}
          >
            {row.devices.map((device) => (
              <DeviceItem
                key={device.id}
                device={device}
                onRemove={onRemoveDevice ? () => onRemoveDevice(device, row) : undefined}
              />
            ))}
          </Box>
        ),
    },
    {
      accessor: 'actions',
      title: t('devices.columns.actions', 'Actions'),
      hidden: !hasActions,
      textAlign: 'right',
      // As narrow as its buttons.
      width: '1%',
      noWrap: true,
      render: (row) => {
        const name = row.fullname || row.username;
        return (
          <Stack gap={4} align="flex-end">
            {onSendLink ? (
              <Button
                size="compact-sm"
                variant="light"
                onClick={() => onSendLink(row)}
                aria-label={
                  kind === 'agentless'
                    ? t('devices.actions.sendAgentlessFor', 'Send agentless link to {{name}}', { name })
                    : t('devices.actions.sendLinkFor', 'Send enrolment link to {{name}}', { name })
                }
              >
                {kind === 'agentless'
                  ? t('devices.actions.sendAgentless', 'Send agentless link')
                  : t('devices.actions.sendLink', 'Send enrolment link')}
              </Button>
            ) : null}
            {onRevokeLink && row.state === 'pending' ? (
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                onClick={() => onRevokeLink(row)}
                aria-label={t('devices.actions.revokeLinkFor', 'Revoke the link of {{name}}', { name })}
              >
                {t('devices.actions.revokeLink', 'Revoke link')}
              </Button>
            ) : null}
          </Stack>
        );
      },
    },
  ];

  return (
    <DataTable<UserDevices>
      withTableBorder
      borderRadius="sm"
      minHeight={160}
      verticalAlign="top"
      records={rows}
      columns={columns}
      idAccessor="id"
      fetching={isFetching}
      loadingText={t('devices.list.loading', 'Loading users and devices…')}
      noRecordsText={t('devices.list.noMatch', 'No users match.')}
      page={page}
      onPageChange={onPageChange}
      totalRecords={total}
      recordsPerPage={pageSize}
      onRecordsPerPageChange={onPageSizeChange}
      recordsPerPageLabel={t('devices.list.pageSize', 'Users per page')}
      aria-label={t('devices.list.tableLabel', 'Users and their devices')}
      {...pagination}
    />
  );
}
