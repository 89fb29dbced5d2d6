import { Alert, Anchor, Badge, Button, Group, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { type DeviceDetail, POSTURE_CHECKS, Uuid } from '@palisade/contracts';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { type DetailItem, DetailList } from '../../../components/ui/detail-list';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { RelativeTime } from '../../../components/ui/relative-time';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { useBulkDevices } from '../api/bulk-devices';
import { useExpireDeviceKey } from '../api/expire-device-key';
import { isDeviceMissing, useDevice } from '../api/get-device';
import { ConfigDownloadPanel, ConfigOutdatedBadge } from '../components/config-download';
import { DeviceNotFound } from '../components/device-not-found';
import {
  DeviceStateBadge,
  DeviceStatusBadge,
  DeviceStatusWithLastSeen,
  Mono,
  PostureBadge,
  useDeviceKindLabels,
  usePolicyTypeLabels,
  usePostureCheckLabels,
  ViaText,
} from '../components/inventory-labels';
import { useMethodLabels } from '../components/labels';
import { OsLabel, useOsLabels } from '../components/os-label';
import { RenameDeviceModal } from '../components/rename-device-modal';

/** The address of a site gateway's own page (the gateways area). */
export function gatewayPagePath(id: string): string {
  return `/cybernodes/view?id=${encodeURIComponent(id)}`;
}

/** A section of the page: a bordered panel with an h2 that names it (a landmark region). */
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

/** Dimmed text saying a section has nothing to show. */
function Nothing({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/** The facts of a device; an endpoint's owner, enrolment, posture and key with them. */
function DetailsSection({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation();
  const kindLabels = useDeviceKindLabels();
  const methodLabels = useMethodLabels();
  const isSite = device.kind === 'site';
  const items: DetailItem[] = [
    {
      label: t('devices.detail.status', 'Status'),
      value: <DeviceStatusWithLastSeen status={device.status} lastSeenAt={device.lastSeenAt} />,
    },
    {
      label: t('devices.detail.state', 'State'),
      value: <DeviceStateBadge state={device.state} kind={device.kind} />,
    },
    { label: t('devices.detail.kind', 'Kind'), value: kindLabels[device.kind] },
    { label: t('devices.detail.os', 'OS type'), value: <OsLabel os={device.os} /> },
  ];
  if (!isSite) {
    items.push(
      {
        label: t('devices.detail.owner', 'Owner'),
        value:
          device.userId && device.username ? (
            <Anchor component={Link} to={`/users/${device.userId}`} size="sm">
              {device.username}
            </Anchor>
          ) : (
            <Nothing>{t('devices.inventory.noOwner', 'No user')}</Nothing>
          ),
      },
      {
        label: t('devices.detail.enrolledVia', 'Enrolled with'),
        value: device.enrolledVia ? methodLabels[device.enrolledVia] : <Nothing>—</Nothing>,
      },
    );
  }
  items.push(
    { label: t('devices.detail.enrolledAt', 'Enrolled'), value: <RelativeTime value={device.enrolledAt} /> },
    {
      label: isSite
        ? t('devices.detail.softwareVersion', 'Software version')
        : t('devices.detail.agentVersion', 'Agent version'),
      value: <Mono value={device.agentVersion} />,
    },
    {
      label: t('devices.detail.enforcedVersion', 'Enforced version'),
      value: <Mono value={device.enforcedVersion} />,
    },
    { label: t('devices.detail.address', 'Tunnel address'), value: <Mono value={device.address} /> },
  );
  if (!isSite) {
    items.push(
      { label: t('devices.detail.posture', 'Posture'), value: <PostureBadge posture={device.posture} /> },
      {
        label: t('devices.detail.keyExpiry', 'Key expires'),
        value: (
          <RelativeTime value={device.keyExpiresAt} empty={t('devices.detail.keyNoExpiry', 'No expiry')} />
        ),
      },
    );
  }
  return (
    <Section title={t('devices.detail.details', 'Details')}>
      <DetailList items={items} />
    </Section>
  );
}

/** Each posture check the client reported, passed or failed; the ones it did not report said so. */
function PostureSection({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation();
  const labels = usePostureCheckLabels();
  const reported = POSTURE_CHECKS.filter((check) => device.postureChecks[check] !== undefined);
  return (
    <Section title={t('devices.detail.postureChecks', 'Posture checks')}>
      {reported.length === 0 ? (
        <Nothing>{t('devices.detail.noPosture', 'The device has not reported its posture yet.')}</Nothing>
      ) : (
        <List listStyleType="none" spacing={6} m={0} p={0}>
          {POSTURE_CHECKS.map((check) => {
            const passed = device.postureChecks[check];
            return (
              <List.Item key={check}>
                <Group gap="sm" wrap="nowrap">
                  {passed === undefined ? (
                    <Badge color="gray" variant="light" radius="sm" miw={96}>
                      {t('devices.detail.checkNotReported', 'Not reported')}
                    </Badge>
                  ) : (
                    <Badge color={passed ? 'green' : 'red'} variant="light" radius="sm" miw={96}>
                      {passed
                        ? t('devices.detail.checkPassed', 'Passed')
                        : t('devices.detail.checkFailed', 'Failed')}
                    </Badge>
                  )}
                  <Text size="sm">{labels[check]}</Text>
                </Group>
              </List.Item>
            );
          })}
        </List>
      )}
    </Section>
  );
}

/** The device's WireGuard identity, its configuration for the apps, and each gateway it peers with. */
function WireguardSection({
  device,
  tenant,
  canUpdate,
}: {
  device: DeviceDetail;
  tenant: string;
  canUpdate: boolean;
}) {
  const { t } = useTranslation();
  const wireguard = device.wireguard;
  return (
    <Section title={t('devices.detail.wireguard', 'WireGuard')}>
      {wireguard === null ? (
        <Nothing>
          {t(
            'devices.detail.noTunnel',
            'No tunnel: the device enrolled without a WireGuard key, or it is not active (waiting for approval, disabled or its key expired).',
          )}
        </Nothing>
      ) : (
        <Stack gap="md">
          <DetailList
            items={[
              {
                label: t('devices.detail.publicKey', 'Public key'),
                value: <Mono value={wireguard.publicKey} />,
              },
              {
                label: t('devices.detail.address', 'Tunnel address'),
                value: <Mono value={wireguard.address} />,
              },
            ]}
          />
          <ConfigDownloadPanel device={device} tenant={tenant} canDownload={canUpdate} />
          {wireguard.peers.length === 0 ? (
            <Nothing>{t('devices.detail.noPeers', 'No gateway has a tunnel network yet.')}</Nothing>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="xs" striped>
                <Table.Caption>
                  {t('devices.detail.peersCaption', 'Gateways this device peers with')}
                </Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('devices.detail.peerGateway', 'Gateway')}</Table.Th>
                    <Table.Th>{t('devices.detail.peerEndpoint', 'Endpoint')}</Table.Th>
                    <Table.Th>{t('devices.detail.peerAllowedIps', 'AllowedIPs')}</Table.Th>
                    <Table.Th>{t('devices.detail.peerHandshake', 'Last handshake')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {wireguard.peers.map((peer) => (
                    <Table.Tr key={peer.gatewayId}>
                      <Table.Td>
                        <Anchor component={Link} to={gatewayPagePath(peer.gatewayId)} size="sm">
                          {peer.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        {peer.endpoint ? (
                          <Mono value={peer.endpoint} />
                        ) : (
                          <Nothing>{t('devices.detail.noEndpoint', 'Not reported yet')}</Nothing>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Mono value={peer.allowedIps.join(', ')} />
                      </Table.Td>
                      <Table.Td>
                        <RelativeTime
                          value={peer.lastHandshakeAt}
                          empty={t('devices.detail.noHandshake', 'No handshake yet')}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Section>
  );
}

/** The stretches the device was online, latest first as the server lists them. */
function SessionsSection({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation();
  return (
    <Section title={t('devices.detail.sessions', 'Online history')}>
      {device.sessions.length === 0 ? (
        <Nothing>{t('devices.detail.noSessions', 'The device has not been online yet.')}</Nothing>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="xs" striped>
            <Table.Caption>{t('devices.detail.sessionsCaption', 'When the device was online')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('devices.detail.sessionStarted', 'Started')}</Table.Th>
                <Table.Th>{t('devices.detail.sessionLastSeen', 'Last seen')}</Table.Th>
                <Table.Th>{t('devices.detail.sessionIp', 'IP address')}</Table.Th>
                <Table.Th>{t('devices.detail.sessionAgent', 'Agent version')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {device.sessions.map((session) => (
                <Table.Tr key={session.startedAt}>
                  <Table.Td>
                    <RelativeTime value={session.startedAt} />
                  </Table.Td>
                  <Table.Td>
                    <RelativeTime value={session.lastSeenAt} />
                  </Table.Td>
                  <Table.Td>
                    <Mono value={session.ip} />
                  </Table.Td>
                  <Table.Td>
                    <Mono value={session.agentVersion} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}

/** The policy groups the device is in, each a link to its page; none while the tenant has policy groups off. */
function PolicyGroupsSection({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation();
  const hasPolicyGroups = useConfigFlag('policyGroups');
  if (!hasPolicyGroups) return null;
  return (
    <Section title={t('devices.detail.policyGroups', 'Policy groups')}>
      {device.policyGroups.length === 0 ? (
        <Nothing>
          {t('devices.detail.noPolicyGroups', 'The device is in no policy group of its own.')}
        </Nothing>
      ) : (
        <Group gap="sm">
          {device.policyGroups.map((group) => (
            <Anchor key={group.id} component={Link} to={`/policy/policyGroups/${group.id}`} size="sm">
              {group.name}
            </Anchor>
          ))}
        </Group>
      )}
    </Section>
  );
}

/** The policies that apply to the device, and through what each reaches it. */
function PoliciesSection({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation();
  const typeLabels = usePolicyTypeLabels();
  return (
    <Section title={t('devices.detail.policies', 'Effective policies')}>
      {device.policies.length === 0 ? (
        <Nothing>{t('devices.detail.noPolicies', 'No policy applies to this device.')}</Nothing>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" striped>
            <Table.Caption>
              {t('devices.detail.policiesCaption', 'Policies that apply to this device, in evaluation order')}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('devices.detail.policyName', 'Policy')}</Table.Th>
                <Table.Th>{t('devices.detail.policyType', 'Type')}</Table.Th>
                <Table.Th>{t('devices.detail.policyEnabled', 'Enabled')}</Table.Th>
                <Table.Th>{t('devices.detail.policyVia', 'Applies through')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {device.policies.map((policy) => (
                <Table.Tr key={policy.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/policy/list?policy=${policy.id}`} size="sm">
                      {policy.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{typeLabels[policy.type]}</Table.Td>
                  <Table.Td>
                    {policy.enabled ? t('devices.detail.yes', 'Yes') : t('devices.detail.no', 'No')}
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      {policy.via.map((via) => (
                        <Text key={`${via.kind}-${via.policyGroup}-${via.group}`} size="sm">
                          <ViaText via={via} />
                        </Text>
                      ))}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}

type Dialog = 'rename' | 'expire' | 'delete' | null;

/** Props of {@link DeviceDetailScreen}. */
export interface DeviceDetailScreenProps {
  /**
   * A site gateway's configuration, rendered below its details. The page that mounts this screen
   * (`app/screens/device-page.tsx`) fills it; not shown for endpoints.
   */
  siteConfig: ReactNode;
}

/**
 * `/devices/{id}`: one device, refreshed every 10 seconds while the tab is visible. An endpoint shows its details,
 * posture checks, WireGuard peers, online history, policy groups and the policies that apply to it, with rename,
 * approve / disable / enable, expire key and delete as the administrator's permissions allow. A site gateway shows
 * its details, a link to its gateway page and the `siteConfig` slot.
 */
export function DeviceDetailScreen({ siteConfig }: DeviceDetailScreenProps) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const isId = Uuid.safeParse(id).success;
  const tenant = useWorkingTenant();
  const navigate = useNavigate();
  const canUpdate = useCan('devices:update');
  const canDelete = useCan('devices:delete');
  const kindLabels = useDeviceKindLabels();
  const osLabels = useOsLabels();
  const [dialog, setDialog] = useState<Dialog>(null);

  const deviceQuery = useDevice(tenant, id, isId);
  const name = deviceQuery.data?.name ?? '';
  const bulk = useBulkDevices(tenant, {
    onSuccess: ({ affected }, input) => {
      setDialog(null);
      if (affected === 0) {
        showSuccess(t('devices.detail.unchanged', '“{{name}}” was left as it was.', { name }));
        return;
      }
      if (input.action === 'delete') {
        showSuccess(t('devices.detail.deleted', 'Device “{{name}}” deleted.', { name }));
        navigate('/devices/list');
        return;
      }
      const texts = {
        approve: t('devices.detail.approved', 'Device “{{name}}” approved.', { name }),
        enable: t('devices.detail.enabled', 'Device “{{name}}” enabled.', { name }),
        disable: t('devices.detail.disabled', 'Device “{{name}}” disabled.', { name }),
        move: '',
      };
      showSuccess(texts[input.action]);
    },
  });
  const expire = useExpireDeviceKey(tenant, id, {
    onSuccess: (device) => {
      setDialog(null);
      showSuccess(
        t('devices.detail.expireKey.done', 'The key of “{{name}}” expired.', { name: device.name }),
      );
    },
  });

  if (!isId) return <DeviceNotFound />;
  if (deviceQuery.isPending) return <LoadingState label={t('devices.detail.loading', 'Loading device…')} />;
  if (deviceQuery.isError && isDeviceMissing(deviceQuery.error)) return <DeviceNotFound />;
  if (deviceQuery.isError && !deviceQuery.data) {
    return <ErrorState error={deviceQuery.error} onRetry={() => void deviceQuery.refetch()} />;
  }
  const device = deviceQuery.data;
  const isSite = device.kind === 'site';
  const act = (action: 'approve' | 'enable' | 'disable' | 'delete') =>
    bulk.mutate({ action, ids: [device.id] });

  const endpointActions =
    canUpdate && !isSite ? (
      <>
        <Button variant="default" onClick={() => setDialog('rename')}>
          {t('devices.detail.rename', 'Rename')}
        </Button>
        {device.state === 'pending' ? (
          <Button onClick={() => act('approve')} loading={bulk.isPending}>
            {t('devices.detail.approve', 'Approve')}
          </Button>
        ) : null}
        {device.state === 'disabled' ? (
          <Button variant="default" onClick={() => act('enable')} loading={bulk.isPending}>
            {t('devices.detail.enable', 'Enable')}
          </Button>
        ) : (
          <Button variant="default" onClick={() => act('disable')} loading={bulk.isPending}>
            {t('devices.detail.disable', 'Disable')}
          </Button>
        )}
        {device.state === 'active' && device.wireguard !== null ? (
          <Button variant="default" onClick={() => setDialog('expire')}>
            {t('devices.detail.expireKey.action', 'Expire key')}
          </Button>
        ) : null}
        {canDelete ? (
          <Button color="red" variant="light" onClick={() => setDialog('delete')}>
            {t('devices.detail.delete', 'Delete')}
          </Button>
        ) : null}
      </>
    ) : null;

  return (
    <>
      <PageHeader
        title={device.name}
        badge={
          <Group gap={6}>
            <DeviceStateBadge state={device.state} kind={device.kind} />
            <DeviceStatusBadge status={device.status} />
            {device.configOutdated === true ? <ConfigOutdatedBadge /> : null}
          </Group>
        }
        description={[kindLabels[device.kind], osLabels[device.os], device.username]
          .filter(Boolean)
          .join(' · ')}
        actions={
          <>
            <Button component={Link} to="/devices/list" variant="default">
              {t('devices.backToList', 'Back to devices')}
            </Button>
            {isSite ? (
              <Button component={Link} to={gatewayPagePath(device.id)}>
                {t('devices.detail.gatewayPage', 'Open gateway page')}
              </Button>
            ) : null}
            {endpointActions}
          </>
        }
      />
      <Stack gap="md">
        {deviceQuery.isError ? (
          <ErrorState error={deviceQuery.error} onRetry={() => void deviceQuery.refetch()} />
        ) : null}
        {device.state === 'pending' && !isSite ? (
          <Alert color="blue" title={t('devices.detail.pendingTitle', 'Waiting for approval')}>
            {t(
              'devices.detail.pendingText',
              'The tenant requires approval of new devices: this device gets no tunnel until it is approved.',
            )}
          </Alert>
        ) : null}
        {isSite ? (
          <>
            <Alert color="gray" title={t('devices.detail.siteTitle', 'A site gateway')}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm">
                  {t(
                    'devices.detail.siteText',
                    'Its software, policy bundle, credentials and load are on its gateway page.',
                  )}
                </Text>
                <Anchor component={Link} to={gatewayPagePath(device.id)} size="sm">
                  {t('devices.detail.siteLink', 'Go to the gateway page of “{{name}}”', {
                    name: device.name,
                  })}
                </Anchor>
              </Stack>
            </Alert>
            <DetailsSection device={device} />
            {siteConfig}
          </>
        ) : (
          <>
            <DetailsSection device={device} />
            <PostureSection device={device} />
            <WireguardSection device={device} tenant={tenant} canUpdate={canUpdate} />
            <SessionsSection device={device} />
            <PolicyGroupsSection device={device} />
            <PoliciesSection device={device} />
          </>
        )}
      </Stack>
      {dialog === 'rename' ? (
        <RenameDeviceModal device={device} tenant={tenant} onClose={() => setDialog(null)} />
      ) : null}
      <ConfirmModal
        opened={dialog === 'expire'}
        title={t('devices.detail.expireKey.title', 'Expire the key of “{{name}}”?', { name: device.name })}
        message={t(
          'devices.detail.expireKey.message',
          'The device loses its tunnel at once and gets it back only after it rotates its WireGuard key.',
        )}
        confirmLabel={t('devices.detail.expireKey.confirm', 'Expire key')}
        isBusy={expire.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() => expire.mutate()}
      />
      <ConfirmModal
        opened={dialog === 'delete'}
        title={t('devices.detail.deleteTitle', 'Delete “{{name}}”?', { name: device.name })}
        message={t(
          'devices.detail.deleteMessage',
          'It loses its tunnel at once and must enrol again to reconnect. This cannot be undone.',
        )}
        confirmLabel={t('devices.detail.deleteConfirm', 'Delete device')}
        isDestructive
        isBusy={bulk.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() => act('delete')}
      />
    </>
  );
}
