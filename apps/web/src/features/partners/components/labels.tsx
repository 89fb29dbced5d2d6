import { Badge } from '@mantine/core';
import type { TenantKind, TenantStatus } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

const STATUS_COLORS: Record<TenantStatus, string> = {
  active: 'green',
  suspended: 'red',
  deletion_scheduled: 'gray',
};

/** The translated names of the tenant statuses. */
export function useStatusLabels(): Record<TenantStatus, string> {
  const { t } = useTranslation();
  return {
    active: t('partners.status.active', 'Active'),
    suspended: t('partners.status.suspended', 'Suspended'),
    deletion_scheduled: t('partners.status.deletion_scheduled', 'Deletion scheduled'),
  };
}

/** The translated names of the tenant kinds. */
export function useKindLabels(): Record<TenantKind, string> {
  const { t } = useTranslation();
  return {
    platform: t('partners.kind.platform', 'Platform'),
    partner: t('partners.kind.partner', 'Partner'),
    customer: t('partners.kind.customer', 'Customer'),
  };
}

/** A tenant's status as translated text on a colour badge. */
export function TenantStatusBadge({ status }: { status: TenantStatus }) {
  const labels = useStatusLabels();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" radius="sm">
      {labels[status]}
    </Badge>
  );
}
