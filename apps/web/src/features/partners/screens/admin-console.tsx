import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { HOME_PATH, type ManagedTenant, TENANT_STATUSES } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ColumnChooser, useColumnChoice } from '../../../components/list/column-choice';
import { ListSearch } from '../../../components/list/list-search';
import { ListToolbar, listTotalText, ServerList } from '../../../components/list/server-list';
import { useListAddress } from '../../../components/list/use-list-address';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState } from '../../../components/ui/query-state';
import { canWorkIn, useCan, useSession, useSetWorkingTenant } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useRestoreManagedTenant } from '../api/delete-managed-tenant';
import { useManagedTenants } from '../api/get-managed-tenants';
import { useSetManagedTenantStatus } from '../api/set-managed-tenant-status';
import { CreateTenantModal } from '../components/create-tenant-modal';
import { DeleteTenantModal } from '../components/delete-tenant-modal';
import { useStatusLabels } from '../components/labels';
import { useManagedTenantColumns } from '../components/managed-tenant-columns';
import { MoveTenantModal } from '../components/move-tenant-modal';
import { TenantFeaturesModal } from '../components/tenant-features-modal';
import {
  isNarrowed,
  type ManagedTenantSort,
  managedTenantsListCodec,
  type TenantStatusFilter,
  toManagedTenantsQuery,
} from '../utils/list-params';

/** The roles that have a partner console. */
const CONSOLE_ROLES = ['partner_admin', 'platform_admin'] as const;

/**
 * `/admin-console`: the partner console. A partner admin sees the customer tenants of its partner, a platform
 * admin every partner and customer (with their partner, and may move a customer to another partner). Server-
 * paged, searched, filtered by status and sorted by name or creation, all kept in the address; per tenant: open
 * it in edit mode or read-only (the console switches into it, as the tenant switcher does), suspend or resume it
 * after a confirmation.
 * "Create tenant" creates a customer tenant and invites its owner by mail.
 */
export function Component() {
  const { t } = useTranslation();
  const { session, refresh } = useSession();
  const setWorkingTenant = useSetWorkingTenant();
  const navigate = useNavigate();
  const canCreate = useCan('tenant:create');
  const canUpdate = useCan('tenant:update');
  const statusLabels = useStatusLabels();

  // The console is the session's own tenant's, whichever tenant is open.
  const consoleTenant = session?.tenant ?? '';
  const hasConsole = session !== null && (CONSOLE_ROLES as readonly string[]).includes(session.role);
  const isPlatform = session?.tenantKind === 'platform';
  const canMove = session?.role === 'platform_admin' && canUpdate;

  const { state, setState, search } = useListAddress(managedTenantsListCodec);
  const list = useManagedTenants(consoleTenant, toManagedTenantsQuery(state), hasConsole);

  const [isCreateOpen, setCreateOpen] = useState(false);
  const [moveTarget, setMoveTarget] = useState<ManagedTenant | null>(null);
  const [featuresTarget, setFeaturesTarget] = useState<ManagedTenant | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<ManagedTenant | null>(null);
  const canDelete = useCan('tenant:delete');
  const isPartner = session?.tenantKind === 'partner';
  const restore = useRestoreManagedTenant(consoleTenant, {
    onSuccess: (restored) =>
      showSuccess(t('partners.restore.done', '{{name}} was restored.', { name: restored.displayName })),
    onError: (error) =>
      showMutationError(t, error, { title: t('partners.restore.failed', 'The tenant was not restored') }),
  });
  // The tenant of the status confirmation: kept while the dialog fades out, so its text does not change.
  const [statusTarget, setStatusTarget] = useState<ManagedTenant | null>(null);
  const [isStatusOpen, setStatusOpen] = useState(false);
  const isSuspending = statusTarget?.status === 'active';

  const setStatus = useSetManagedTenantStatus(consoleTenant, {
    onSuccess: (changed) => {
      setStatusOpen(false);
      showSuccess(
        changed.status === 'suspended'
          ? t('partners.suspend.done', '{{name}} is suspended.', { name: changed.displayName })
          : t('partners.resume.done', '{{name}} is active again.', { name: changed.displayName }),
      );
    },
    onError: (error, { status }) => {
      setStatusOpen(false);
      showMutationError(t, error, {
        title:
          status === 'suspended'
            ? t('partners.suspend.failed', 'The tenant was not suspended')
            : t('partners.resume.failed', 'The tenant was not resumed'),
      });
    },
  });

  /**
   * Switches the console into the tenant, as the tenant switcher does (opening it in edit mode or read-only), and
   * shows its dashboard; stays here when the server refused.
   */
  const openTenant = async (tenant: ManagedTenant, edit: boolean) => {
    // A tenant created since the session was read is not among its managed tenants yet.
    if (!canWorkIn(session, tenant.name)) await refresh();
    if (!(await setWorkingTenant(tenant.name, { edit }))) return;
    void navigate(HOME_PATH);
  };

  const columnChoice = useColumnChoice(
    isPlatform ? 'managed-tenants-platform' : 'managed-tenants',
    useManagedTenantColumns({
      isPlatform,
      canUpdate,
      canMove,
      busyId: setStatus.isPending ? setStatus.variables?.id : restore.isPending ? restore.variables : null,
      onOpen: (tenant, edit) => void openTenant(tenant, edit),
      onToggleStatus: (tenant) => {
        setStatusTarget(tenant);
        setStatusOpen(true);
      },
      onMove: setMoveTarget,
      onFeatures: setFeaturesTarget,
      ...(canDelete
        ? { onDelete: setDeleteTarget, onRestore: (tenant: ManagedTenant) => restore.mutate(tenant.id) }
        : {}),
    }),
  );

  const title = t('partners.title', 'Partner console');
  if (!hasConsole) {
    return (
      <>
        <PageHeader title={title} />
        <EmptyState
          message={t(
            'partners.notAllowed',
            'The partner console is for partner and platform administrators.',
          )}
        />
      </>
    );
  }

  const createButton = canCreate ? (
    <Button onClick={() => setCreateOpen(true)}>{t('partners.create.button', 'Create tenant')}</Button>
  ) : null;

  return (
    <>
      <PageHeader
        title={title}
        description={listTotalText(t, list.data, (count) =>
          t('partners.total', {
            count,
            defaultValue_one: '{{count, number}} tenant',
            defaultValue_other: '{{count, number}} tenants',
          }),
        )}
        actions={
          <Group gap="sm">
            {isPartner ? (
              <Button component={Link} to="/admin-console/settings" variant="default">
                {t('partners.settings.button', 'Partner settings')}
              </Button>
            ) : null}
            <Button component={Link} to="/admin-console/templates" variant="default">
              {t('partners.templates', 'Policy templates')}
            </Button>
            {createButton}
          </Group>
        }
      />
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {isPlatform
            ? t('partners.introPlatform', 'Every partner and customer tenant of the platform.')
            : t('partners.introPartner', 'The customer tenants your partner account manages.')}
        </Text>
        <ListToolbar
          search={
            <Group align="flex-end" gap="md" wrap="wrap">
              <ListSearch
                value={state.q}
                onSearch={search}
                label={t('partners.search', 'Search')}
                placeholder={t('partners.searchPlaceholder', 'Name or display name')}
              />
              <Select
                label={t('partners.filter.status', 'Status')}
                data={[
                  { value: 'all', label: t('partners.filter.statusAll', 'All statuses') },
                  ...TENANT_STATUSES.map((status) => ({ value: status, label: statusLabels[status] })),
                ]}
                allowDeselect={false}
                value={state.status}
                onChange={(value) => setState({ status: (value ?? 'all') as TenantStatusFilter, page: 1 })}
                w={{ base: '100%', sm: 200 }}
              />
            </Group>
          }
          actions={<ColumnChooser choice={columnChoice} />}
        />
        <ServerList<ManagedTenant>
          query={list}
          columns={columnChoice.columns}
          label={t('partners.table', 'Managed tenants')}
          texts={{
            loading: t('partners.loading', 'Loading tenants…'),
            empty: t('partners.empty', 'No tenants yet.'),
            noMatch: t('partners.noMatch', 'No tenants match these filters.'),
            perPage: t('partners.pageSize', 'Tenants per page'),
          }}
          page={state.page}
          pageSize={state.pageSize}
          onPageChange={(page) => setState({ page })}
          onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
          sort={{ column: state.sort, order: state.order }}
          onSortChange={({ column, order }) =>
            setState({ sort: column as ManagedTenantSort, order, page: 1 })
          }
          isFiltered={isNarrowed(state)}
          emptyAction={createButton}
          pinFirstColumn
        />
      </Stack>
      <ConfirmModal
        opened={isStatusOpen}
        title={
          isSuspending
            ? t('partners.suspend.title', 'Suspend tenant?')
            : t('partners.resume.title', 'Resume tenant?')
        }
        message={
          isSuspending
            ? t(
                'partners.suspend.message',
                'The people of {{name}} are signed out at once and cannot sign in, and its API tokens stop working, until it is resumed.',
                { name: statusTarget?.displayName ?? '' },
              )
            : t(
                'partners.resume.message',
                'The people of {{name}} can sign in again, and its API tokens work again.',
                { name: statusTarget?.displayName ?? '' },
              )
        }
        confirmLabel={
          isSuspending ? t('partners.suspend.confirm', 'Suspend') : t('partners.resume.confirm', 'Resume')
        }
        isDestructive={isSuspending}
        isBusy={setStatus.isPending}
        onClose={() => setStatusOpen(false)}
        onConfirm={() => {
          if (statusTarget)
            setStatus.mutate({ id: statusTarget.id, status: isSuspending ? 'suspended' : 'active' });
        }}
      />
      {canCreate ? (
        <CreateTenantModal
          opened={isCreateOpen}
          onClose={() => setCreateOpen(false)}
          tenant={consoleTenant}
          // The tenant switcher offers the new tenant once the session names it.
          onCreated={() => void refresh()}
        />
      ) : null}
      <TenantFeaturesModal
        target={featuresTarget}
        tenant={consoleTenant}
        canEdit={canUpdate}
        onClose={() => setFeaturesTarget(null)}
      />
      {canDelete ? (
        <DeleteTenantModal
          target={deleteTarget}
          tenant={consoleTenant}
          onClose={() => setDeleteTarget(null)}
        />
      ) : null}
      {canMove ? (
        <MoveTenantModal target={moveTarget} tenant={consoleTenant} onClose={() => setMoveTarget(null)} />
      ) : null}
    </>
  );
}
