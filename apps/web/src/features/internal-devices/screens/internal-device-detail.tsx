import { Anchor, Button, Paper, Stack, Text } from '@mantine/core';
import { Uuid } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { DetailList } from '../../../components/ui/detail-list';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { RelativeTime } from '../../../components/ui/relative-time';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useForgetInternalDevice } from '../api/forget-internal-device';
import { isInternalDeviceMissing, useInternalDevice } from '../api/get-internal-device';
import { ActivityBadge, gatewayDevicePath, Mono, OrUnknown, useSourceLabels } from '../components/labels';

const LIST_PATH = '/devices/internal-devices';

function BackToList() {
  const { t } = useTranslation();
  return (
    <Button component={Link} to={LIST_PATH} variant="default">
      {t('internalDevices.backToList', 'Back to internal devices')}
    </Button>
  );
}

/** "Not found", with the way back to the list. */
function NotFound() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('internalDevices.notFound.title', 'Internal device not found')} />
      <EmptyState
        message={t(
          'internalDevices.notFound.message',
          'No site gateway of this tenant has seen a host with this address, or it was forgotten.',
        )}
        action={<BackToList />}
      />
    </>
  );
}

/**
 * `/devices/internal-devices/{id}`: one host a site gateway sees — its names and addresses, the gateway it is
 * behind (a link to that gateway's device page), where and when it was seen — refreshed every 15 seconds while the
 * tab is visible. Administrators who may delete gateways' data can forget it: it is listed again, as new, when
 * the gateway sees it again.
 */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const isId = Uuid.safeParse(id).success;
  const tenant = useWorkingTenant();
  const navigate = useNavigate();
  const canForget = useCan('gateways:delete');
  const sourceLabels = useSourceLabels();
  const [isConfirming, setConfirming] = useState(false);
  const query = useInternalDevice(tenant, id, isId);
  const name = query.data ? (query.data.hostname ?? query.data.mac) : '';
  const forget = useForgetInternalDevice(tenant, {
    onSuccess: () => {
      setConfirming(false);
      showSuccess(t('internalDevices.forget.done', '“{{name}}” forgotten.', { name }));
      navigate(LIST_PATH);
    },
  });

  if (!isId) return <NotFound />;
  if (query.isPending) return <LoadingState label={t('internalDevices.detail.loading', 'Loading device…')} />;
  if (query.isError && isInternalDeviceMissing(query.error)) return <NotFound />;
  if (query.isError && !query.data) {
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  const device = query.data;

  return (
    <>
      <PageHeader
        title={name}
        badge={<ActivityBadge isActive={device.isActive} />}
        description={t('internalDevices.detail.behind', 'Behind {{gateway}}', {
          gateway: device.gatewayName,
        })}
        actions={
          <>
            <BackToList />
            <Button component={Link} to={gatewayDevicePath(device.gatewayId)} variant="default">
              {t('internalDevices.detail.gatewayPage', 'Open gateway')}
            </Button>
            {canForget ? (
              <Button color="red" variant="light" onClick={() => setConfirming(true)}>
                {t('internalDevices.forget.action', 'Forget')}
              </Button>
            ) : null}
          </>
        }
      />
      <Stack gap="md">
        {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
        <Paper withBorder p="md" radius="sm">
          <DetailList
            items={[
              {
                label: t('internalDevices.detail.hostname', 'Host name'),
                value: (
                  <OrUnknown
                    value={device.hostname}
                    unknown={t('internalDevices.detail.noHostname', 'None reported')}
                  />
                ),
              },
              { label: t('internalDevices.detail.ip', 'IP address'), value: <Mono value={device.ip} /> },
              { label: t('internalDevices.detail.mac', 'MAC address'), value: <Mono value={device.mac} /> },
              {
                label: t('internalDevices.detail.vendor', 'Vendor'),
                value: (
                  <OrUnknown
                    value={device.vendor}
                    unknown={t(
                      'internalDevices.detail.noVendor',
                      'Unknown (a private or unregistered address)',
                    )}
                  />
                ),
              },
              {
                label: t('internalDevices.detail.gateway', 'Gateway'),
                value: (
                  <Anchor component={Link} to={gatewayDevicePath(device.gatewayId)} size="sm">
                    {device.gatewayName}
                  </Anchor>
                ),
              },
              {
                label: t('internalDevices.detail.interface', 'Interface'),
                value: <Mono value={device.interface} />,
              },
              { label: t('internalDevices.detail.source', 'Seen in'), value: sourceLabels[device.source] },
              {
                label: t('internalDevices.detail.status', 'Status'),
                value: <ActivityBadge isActive={device.isActive} />,
              },
              {
                label: t('internalDevices.detail.firstSeen', 'First seen'),
                value: <RelativeTime value={device.firstSeenAt} />,
              },
              {
                label: t('internalDevices.detail.lastSeen', 'Last seen'),
                value: <RelativeTime value={device.lastSeenAt} />,
              },
            ]}
          />
        </Paper>
        <Text size="sm" c="dimmed">
          {t(
            'internalDevices.detail.activeHint',
            'A host seen in the last 10 minutes is active. A DHCP host name is kept when later reports from the ARP table carry none.',
          )}
        </Text>
      </Stack>
      <ConfirmModal
        opened={isConfirming}
        title={t('internalDevices.forget.title', 'Forget “{{name}}”?', { name })}
        message={t(
          'internalDevices.forget.message',
          'Its history (first seen) is removed. If {{gateway}} sees it again, it is listed again as a new device.',
          { gateway: device.gatewayName },
        )}
        confirmLabel={t('internalDevices.forget.confirm', 'Forget device')}
        isDestructive
        isBusy={forget.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => forget.mutate(device.id)}
      />
    </>
  );
}
