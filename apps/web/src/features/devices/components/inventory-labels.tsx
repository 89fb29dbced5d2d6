import { Badge, Group, Text } from '@mantine/core';
import type {
  DeviceKind,
  DevicePolicy,
  DevicePosture,
  DeviceState,
  DeviceStatus,
  PolicyType,
  PostureCheck,
} from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../../../components/ui/relative-time';

// The words and badges of the device inventory (`/devices/list`, `/devices/{id}`). Every badge carries its state
// in words; the colour only repeats it.

/** The translated device statuses. */
export function useDeviceStatusLabels(): Record<DeviceStatus, string> {
  const { t } = useTranslation();
  return {
    online: t('devices.status.online', 'Online'),
    offline: t('devices.status.offline', 'Offline'),
    never: t('devices.status.never', 'Never seen'),
  };
}

const STATUS_COLORS: Record<DeviceStatus, string> = { online: 'green', offline: 'red', never: 'gray' };

/** A device status as text on a colour badge. */
export function DeviceStatusBadge({ status }: { status: DeviceStatus }) {
  const labels = useDeviceStatusLabels();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" radius="sm" miw="max-content">
      {labels[status]}
    </Badge>
  );
}

/** The status badge with when the device was last seen beside it ("Offline · 3 hours ago"). */
export function DeviceStatusWithLastSeen({
  status,
  lastSeenAt,
}: {
  status: DeviceStatus;
  lastSeenAt: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="nowrap">
      <DeviceStatusBadge status={status} />
      {lastSeenAt ? (
        <Text span size="xs" c="dimmed">
          {t('devices.status.lastSeen', 'last seen')} <RelativeTime value={lastSeenAt} />
        </Text>
      ) : null}
    </Group>
  );
}

/** The translated states an endpoint has with the administrator. */
export function useDeviceStateLabels(): Record<DeviceState, string> {
  const { t } = useTranslation();
  return {
    active: t('devices.deviceState.active', 'Active'),
    pending: t('devices.deviceState.pending', 'Waiting for approval'),
    disabled: t('devices.deviceState.disabled', 'Disabled'),
    expired: t('devices.deviceState.expired', 'Key expired'),
  };
}

const STATE_COLORS: Record<DeviceState, string> = {
  active: 'green',
  pending: 'blue',
  disabled: 'gray',
  expired: 'orange',
};

/**
 * A device's state as text on a colour badge. A site gateway is `pending` until it enrols (it needs no approval),
 * and says so.
 */
export function DeviceStateBadge({ state, kind = 'endpoint' }: { state: DeviceState; kind?: DeviceKind }) {
  const { t } = useTranslation();
  const labels = useDeviceStateLabels();
  const text =
    kind === 'site' && state === 'pending'
      ? t('devices.deviceState.sitePending', 'Waiting for enrolment')
      : labels[state];
  return (
    <Badge color={STATE_COLORS[state]} variant="outline" radius="sm" miw="max-content">
      {text}
    </Badge>
  );
}

/** The translated posture summaries. */
export function usePostureLabels(): Record<DevicePosture, string> {
  const { t } = useTranslation();
  return {
    compliant: t('devices.posture.compliant', 'Compliant'),
    failing: t('devices.posture.failing', 'Failing'),
    unknown: t('devices.posture.unknown', 'Unknown'),
  };
}

const POSTURE_COLORS: Record<DevicePosture, string> = { compliant: 'green', failing: 'red', unknown: 'gray' };

/** A device's posture as text on a colour badge. */
export function PostureBadge({ posture }: { posture: DevicePosture }) {
  const labels = usePostureLabels();
  return (
    <Badge color={POSTURE_COLORS[posture]} variant="light" radius="sm" miw="max-content">
      {labels[posture]}
    </Badge>
  );
}

/** The translated posture checks a client reports. */
export function usePostureCheckLabels(): Record<PostureCheck, string> {
  const { t } = useTranslation();
  return {
    diskEncrypted: t('devices.postureCheck.diskEncrypted', 'Disk encryption'),
    firewall: t('devices.postureCheck.firewall', 'Firewall'),
    screenLock: t('devices.postureCheck.screenLock', 'Screen lock'),
    antivirus: t('devices.postureCheck.antivirus', 'Antivirus'),
    osUpToDate: t('devices.postureCheck.osUpToDate', 'Operating system up to date'),
  };
}

/** The translated kinds of the inventory. */
export function useDeviceKindLabels(): Record<DeviceKind, string> {
  const { t } = useTranslation();
  return {
    endpoint: t('devices.kind.endpoint', 'Endpoint'),
    site: t('devices.kind.site', 'Site gateway'),
  };
}

/** The translated policy types. */
export function usePolicyTypeLabels(): Record<PolicyType, string> {
  const { t } = useTranslation();
  return {
    route: t('devices.policyType.route', 'Device policy'),
    qos: t('devices.policyType.qos', 'QoS policy'),
    other: t('devices.policyType.other', 'User policy'),
  };
}

/** A value in monospace (versions, addresses, keys), or a dimmed dash. */
export function Mono({ value }: { value: string | null }) {
  if (!value) {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Text span size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
      {value}
    </Text>
  );
}

/** How one policy reaches the device, as a short phrase. */
export function ViaText({ via }: { via: DevicePolicy['via'][number] }) {
  const { t } = useTranslation();
  const policyGroup = via.policyGroup ?? '';
  switch (via.kind) {
    case 'everyone':
      return <>{t('devices.via.everyone', 'Everyone')}</>;
    case 'device':
      return <>{t('devices.via.device', 'Device via {{policyGroup}}', { policyGroup })}</>;
    case 'user':
      return <>{t('devices.via.user', 'User via {{policyGroup}}', { policyGroup })}</>;
    default:
      return (
        <>
          {t('devices.via.group', 'Group {{group}} via {{policyGroup}}', {
            group: via.group ?? '',
            policyGroup,
          })}
        </>
      );
  }
}
