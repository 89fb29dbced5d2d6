import { Badge } from '@mantine/core';
import type { GatewayStatus } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** The translated gateway statuses (the gateway screens, the routes, the network map). */
export function useGatewayStatusLabels(): Record<GatewayStatus, string> {
  const { t } = useTranslation();
  return {
    pending: t('gateways.status.pending', 'Pending enrolment'),
    online: t('gateways.status.online', 'Online'),
    offline: t('gateways.status.offline', 'Offline'),
    retired: t('gateways.status.retired', 'Retired'),
  };
}

const STATUS_COLORS: Record<GatewayStatus, string> = {
  online: 'green',
  offline: 'red',
  pending: 'blue',
  retired: 'gray',
};

/** A gateway status as translated text on a colour badge (the colour only repeats the text). */
export function GatewayStatusBadge({ status }: { status: GatewayStatus }) {
  const labels = useGatewayStatusLabels();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" radius="sm" miw="max-content">
      {labels[status]}
    </Badge>
  );
}
