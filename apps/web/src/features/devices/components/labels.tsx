import { Badge, Text } from '@mantine/core';
import type { CONN_STATUSES, ENROLMENT_METHODS, ENROLMENT_STATES } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

export type ConnStatus = (typeof CONN_STATUSES)[number];
export type EnrolmentState = (typeof ENROLMENT_STATES)[number];
export type EnrolmentMethod = (typeof ENROLMENT_METHODS)[number];

const STATE_COLORS: Record<EnrolmentState, string> = {
  'not-invited': 'gray',
  pending: 'blue',
  expired: 'orange',
  enrolled: 'green',
};

/** Where a user stands with enrolment, as translated text on a colour badge (the colour only repeats it). */
export function EnrolmentStateBadge({ state }: { state: EnrolmentState }) {
  const { t } = useTranslation();
  const labels: Record<EnrolmentState, string> = {
    'not-invited': t('devices.state.notInvited', 'Not invited'),
    pending: t('devices.state.pending', 'Link pending'),
    expired: t('devices.state.expired', 'Link expired'),
    enrolled: t('devices.state.enrolled', 'Enrolled'),
  };
  return (
    <Badge color={STATE_COLORS[state]} variant="light" radius="sm" miw="max-content">
      {labels[state]}
    </Badge>
  );
}

/** The translated connection statuses. */
export function useConnStatusLabels(): Record<ConnStatus, string> {
  const { t } = useTranslation();
  return {
    connected: t('devices.connstatus.connected', 'Connected'),
    disconnected: t('devices.connstatus.disconnected', 'Disconnected'),
    never: t('devices.connstatus.never', 'Never connected'),
  };
}

/** A connection status as plain text (spec: the connection status is text). */
export function ConnStatusText({ status }: { status: ConnStatus }) {
  const labels = useConnStatusLabels();
  return (
    <Text size="sm" span c={status === 'connected' ? 'green' : undefined}>
      {labels[status]}
    </Text>
  );
}

/** The translated ways a device was enrolled. */
export function useMethodLabels(): Record<EnrolmentMethod, string> {
  const { t } = useTranslation();
  return {
    link: t('devices.method.link', 'Enrolment link'),
    rmm: t('devices.method.rmm', 'RMM deployment'),
    agentless: t('devices.method.agentless', 'Agentless (browser)'),
  };
}
