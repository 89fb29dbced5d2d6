import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { ManagedTenant } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '../../../components/list/column-choice';
import { useFormatters } from '../../../lib/format-time';
import { formatNumber } from '../../../lib/i18n';
import { TenantStatusBadge, useKindLabels } from './labels';

/** Options of {@link useManagedTenantColumns}. */
export interface ManagedTenantColumnsOptions {
  /** The platform's console: every partner's tenants, so the partner column and the move action. */
  isPlatform: boolean;
  canUpdate: boolean;
  canMove: boolean;
  /** The tenant whose status change is on its way (its button shows it). */
  busyId?: string | null;
  /** Opens the tenant: in edit mode ("Open") or read-only ("Open read-only"). */
  onOpen: (tenant: ManagedTenant, edit: boolean) => void;
  onToggleStatus: (tenant: ManagedTenant) => void;
  onMove: (tenant: ManagedTenant) => void;
  /** Asks to delete the tenant (a customer), or to restore it while its deletion is scheduled; no button without it. */
  onDelete?: (tenant: ManagedTenant) => void;
  onRestore?: (tenant: ManagedTenant) => void;
  /** Opens the tenant's feature flags (components/tenant-features-modal.tsx); no button without it. */
  onFeatures?: (tenant: ManagedTenant) => void;
}

/**
 * The columns of the console's list: the display name with the name under it (kept in view), the partner (on the
 * platform's console), the status, the counts — gateways with the offline ones flagged — and the creation date;
 * the row's actions last. Phones keep the name, the status and the actions.
 */
export function useManagedTenantColumns({
  isPlatform,
  canUpdate,
  canMove,
  busyId,
  onOpen,
  onToggleStatus,
  onMove,
  onFeatures,
  onDelete,
  onRestore,
}: ManagedTenantColumnsOptions): ListColumn<ManagedTenant>[] {
  const { t } = useTranslation();
  const kinds = useKindLabels();
  const format = useFormatters();
  const count = (value: number) => formatNumber(value);

  const columns: (ListColumn<ManagedTenant> | null)[] = [
    {
      accessor: 'name',
      title: t('partners.column.name', 'Tenant'),
      sortable: true,
      isAlwaysShown: true,
      isEssential: true,
      render: (tenant) => (
        <Stack gap={0}>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={500}>
              {tenant.displayName}
            </Text>
            {tenant.kind !== 'customer' ? (
              <Badge size="xs" variant="outline" color="gray" radius="sm">
                {kinds[tenant.kind]}
              </Badge>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            {tenant.name}
          </Text>
        </Stack>
      ),
    },
    isPlatform
      ? {
          accessor: 'partner',
          title: t('partners.column.partner', 'Partner'),
          render: (tenant) => tenant.partner ?? '—',
        }
      : null,
    {
      accessor: 'status',
      title: t('partners.column.status', 'Status'),
      isEssential: true,
      render: (tenant) =>
        tenant.deletionDueAt ? (
          <Stack gap={2}>
            <TenantStatusBadge status={tenant.status} />
            <Text size="xs" c="dimmed">
              {t('partners.delete.due', 'Deleted on {{date}}', {
                date: format.date(tenant.deletionDueAt),
              })}
            </Text>
          </Stack>
        ) : (
          <TenantStatusBadge status={tenant.status} />
        ),
    },
    {
      accessor: 'subscription',
      title: t('partners.column.subscription', 'Subscription'),
      render: ({ subscription }) =>
        subscription ? (
          <Stack gap={2}>
            <Text span size="sm">
              {t(`subscriptions.plans.${subscription.plan}`)}
            </Text>
            <Text span size="xs" c="dimmed">
              {subscription.status === 'trial' && subscription.trialEndsAt
                ? t('partners.trialEnds', 'Trial until {{date}}', {
                    date: format.date(subscription.trialEndsAt),
                  })
                : t(`subscriptions.status.${subscription.status}`)}
            </Text>
          </Stack>
        ) : (
          <Text span size="sm" c="dimmed">
            {t('partners.noSubscription', 'None')}
          </Text>
        ),
    },
    {
      accessor: 'users',
      title: t('partners.column.users', 'End users'),
      textAlign: 'right',
      render: (tenant) => count(tenant.users),
    },
    {
      accessor: 'devices',
      title: t('partners.column.devices', 'Devices'),
      textAlign: 'right',
      render: (tenant) => count(tenant.devices),
    },
    {
      accessor: 'gateways',
      title: t('partners.column.gateways', 'Gateways'),
      textAlign: 'right',
      noWrap: true,
      render: (tenant) =>
        tenant.gatewaysOffline > 0 ? (
          // Bold, not coloured: an orange that reads on both themes' grounds would be too dark to mean a warning.
          <Text span size="sm" fw={700}>
            {t('partners.gatewaysOffline', '{{total, number}} ({{offline, number}} offline)', {
              total: tenant.gateways,
              offline: tenant.gatewaysOffline,
            })}
          </Text>
        ) : (
          count(tenant.gateways)
        ),
    },
    {
      accessor: 'createdAt',
      title: t('partners.column.createdAt', 'Created'),
      sortable: true,
      noWrap: true,
      render: (tenant) => format.date(tenant.createdAt),
    },
    {
      accessor: 'actions',
      title: t('partners.column.actions', 'Actions'),
      textAlign: 'right',
      isAlwaysShown: true,
      isEssential: true,
      render: (tenant) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => onOpen(tenant, true)}
            aria-label={t('partners.open.label', 'Open {{name}}', { name: tenant.displayName })}
          >
            {t('partners.open.button', 'Open')}
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => onOpen(tenant, false)}
            aria-label={t('partners.open.readOnlyLabel', 'Open {{name}} read-only', {
              name: tenant.displayName,
            })}
          >
            {t('partners.open.readOnly', 'Open read-only')}
          </Button>
          {canUpdate && tenant.status !== 'deletion_scheduled' ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color={tenant.status === 'active' ? 'red' : undefined}
              loading={busyId === tenant.id}
              onClick={() => onToggleStatus(tenant)}
              aria-label={
                tenant.status === 'active'
                  ? t('partners.suspend.label', 'Suspend {{name}}', { name: tenant.displayName })
                  : t('partners.resume.label', 'Resume {{name}}', { name: tenant.displayName })
              }
            >
              {tenant.status === 'active'
                ? t('partners.suspend.button', 'Suspend')
                : t('partners.resume.button', 'Resume')}
            </Button>
          ) : null}
          {onFeatures ? (
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => onFeatures(tenant)}
              aria-label={t('partners.features.label', 'Features of {{name}}', { name: tenant.displayName })}
            >
              {t('partners.features.button', 'Features')}
            </Button>
          ) : null}
          {onRestore && tenant.status === 'deletion_scheduled' ? (
            <Button
              size="compact-sm"
              variant="subtle"
              loading={busyId === tenant.id}
              onClick={() => onRestore(tenant)}
              aria-label={t('partners.restore.label', 'Restore {{name}}', { name: tenant.displayName })}
            >
              {t('partners.restore.button', 'Restore')}
            </Button>
          ) : null}
          {onDelete && tenant.kind === 'customer' && tenant.status !== 'deletion_scheduled' ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={() => onDelete(tenant)}
              aria-label={t('partners.delete.label', 'Delete {{name}}', { name: tenant.displayName })}
            >
              {t('partners.delete.button', 'Delete')}
            </Button>
          ) : null}
          {canMove && tenant.kind === 'customer' ? (
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => onMove(tenant)}
              aria-label={t('partners.move.label', 'Move {{name}} to a partner', {
                name: tenant.displayName,
              })}
            >
              {t('partners.move.button', 'Move to partner')}
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];
  return columns.filter((column): column is ListColumn<ManagedTenant> => column !== null);
}
