import { Anchor, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { RelativeTime } from '../../../components/ui/relative-time';
import { useWorkingTenant } from '../../../lib/auth';
import { useUserDevices } from '../api/get-user-devices';
import { ConnStatusText, EnrolmentStateBadge, useMethodLabels } from './labels';
import { OsLabel } from './os-label';

/** One end user's devices and enrolment state (the Devices tab of the user's page). */
export function UserDevicesCard({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const methods = useMethodLabels();
  const query = useUserDevices(tenant, { userId, limit: 1 });
  if (query.isPending) return <LoadingState label={t('devices.user.loading', 'Loading devices…')} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const [user] = query.data.items;
  if (!user) return <EmptyState message={t('devices.user.none', 'No devices yet.')} />;
  return (
    <Stack gap="sm">
      {/* A div: a badge is a block, which a paragraph cannot hold. */}
      <Text size="sm" component="div">
        {t('devices.user.state', 'Enrolment:')} <EnrolmentStateBadge state={user.state} />
      </Text>
      {user.devices.length === 0 ? (
        <EmptyState message={t('devices.user.none', 'No devices yet.')} />
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table striped withTableBorder captionSide="top">
            <Table.Caption>{t('devices.user.caption', 'Devices of this user')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('devices.columns.device', 'Device')}</Table.Th>
                <Table.Th scope="col">{t('devices.columns.os', 'Operating system')}</Table.Th>
                <Table.Th scope="col">{t('devices.columns.method', 'Enrolled with')}</Table.Th>
                <Table.Th scope="col">{t('devices.columns.status', 'Status')}</Table.Th>
                <Table.Th scope="col">{t('devices.columns.lastSeen', 'Last seen')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {user.devices.map((device) => (
                <Table.Tr key={device.id}>
                  <Table.Td>{device.name}</Table.Td>
                  <Table.Td>
                    <OsLabel os={device.os} />
                  </Table.Td>
                  <Table.Td>{methods[device.enrolledVia]}</Table.Td>
                  <Table.Td>
                    <ConnStatusText status={device.connstatus} />
                  </Table.Td>
                  <Table.Td>
                    {device.lastSeenAt ? (
                      <RelativeTime value={device.lastSeenAt} />
                    ) : (
                      t('devices.never', 'Never')
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Anchor component={Link} to={`/users/users-devices?q=${encodeURIComponent(user.username)}`} size="sm">
        {t('devices.user.manage', 'Manage links and devices')}
      </Anchor>
    </Stack>
  );
}
