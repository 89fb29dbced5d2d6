import { Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  DEVICE_KINDS,
  DEVICE_OS,
  DEVICE_STATES,
  DEVICE_STATUSES,
  type DeviceBulkInput,
  type DeviceListItem,
} from '@palisade/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ColumnChooser, useColumnChoice } from '../../../components/list/column-choice';
import { ListSearch } from '../../../components/list/list-search';
import {
  ListToolbar,
  listTotalText,
  SelectedCount,
  ServerList,
  useListSelection,
} from '../../../components/list/server-list';
import { useListAddress } from '../../../components/list/use-list-address';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { PageHeader } from '../../../components/ui/page-header';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { useBulkDevices } from '../api/bulk-devices';
import { useExportDevices } from '../api/export-devices';
import { useDevices } from '../api/get-devices';
import { useGroupOptions } from '../api/get-group-options';
import { useDeviceColumns } from '../components/device-columns';
import { DeviceRulesModal } from '../components/device-rules-modal';
import { EndUserSelect } from '../components/end-user-select';
import { useDeviceStateLabels, useDeviceStatusLabels } from '../components/inventory-labels';
import { MoveDevicesModal } from '../components/move-devices-modal';
import { useOsLabels } from '../components/os-label';
import {
  type DeviceSort,
  type DevicesListState,
  devicesListCodec,
  isNarrowed,
  toDevicesExportQuery,
  toDevicesQuery,
} from '../utils/inventory-params';

type BulkAction = DeviceBulkInput['action'];

/** The toast of a finished bulk action: what changed, and how many of the selection were left as they were. */
function useBulkResultText() {
  const { t } = useTranslation();
  return (action: BulkAction, affected: number, selected: number) => {
    const texts: Record<BulkAction, string> = {
      approve: t('devices.bulk.done.approve', {
        count: affected,
        defaultValue_one: '{{count, number}} device approved.',
        defaultValue_other: '{{count, number}} devices approved.',
      }),
      disable: t('devices.bulk.done.disable', {
        count: affected,
        defaultValue_one: '{{count, number}} device disabled.',
        defaultValue_other: '{{count, number}} devices disabled.',
      }),
      enable: t('devices.bulk.done.enable', {
        count: affected,
        defaultValue_one: '{{count, number}} device enabled.',
        defaultValue_other: '{{count, number}} devices enabled.',
      }),
      delete: t('devices.bulk.done.delete', {
        count: affected,
        defaultValue_one: '{{count, number}} device deleted.',
        defaultValue_other: '{{count, number}} devices deleted.',
      }),
      move: t('devices.bulk.done.move', {
        count: affected,
        defaultValue_one: '{{count, number}} device moved to the policy group.',
        defaultValue_other: '{{count, number}} devices moved to the policy group.',
      }),
    };
    const skipped = selected - affected;
    if (skipped <= 0) return texts[action];
    const rest = t('devices.bulk.skipped', {
      count: skipped,
      defaultValue_one:
        '{{count, number}} was left as it was: a site gateway, or a device the action does not apply to.',
      defaultValue_other:
        '{{count, number}} were left as they were: site gateways, or devices the action does not apply to.',
    });
    return `${texts[action]} ${rest}`;
  };
}

/**
 * `/devices/list`: every endpoint and site gateway of the tenant on the shared server-paged list — search, kind,
 * OS, status, state, owner and group filters and the order kept in the address, refreshed every 10 seconds while
 * the tab is visible. Selected endpoints can be approved, disabled, enabled, deleted or moved to a policy group
 * (while the tenant has policy groups: its `policyGroups` configuration flag); the list exports as CSV, and the
 * tenant's device rules are one click away.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('devices:create');
  const canUpdate = useCan('devices:update');
  const canDelete = useCan('devices:delete');
  const canAddSite = useCan('gateways:create');
  const canViewGroups = useCan('groups:view');
  const canViewPolicies = useCan('policies:view');
  const hasPolicyGroups = useConfigFlag('policyGroups');
  const canMove = canViewPolicies && hasPolicyGroups;
  const kindLabelId = useId();
  const isPhone = useMediaQuery('(max-width: 48em)') ?? false;
  const osLabels = useOsLabels();
  const statusLabels = useDeviceStatusLabels();
  const stateLabels = useDeviceStateLabels();
  const resultText = useBulkResultText();

  const { state, setState, search } = useListAddress(devicesListCodec);
  const query = toDevicesQuery(state);
  const list = useDevices(tenant, query);
  const groups = useGroupOptions(tenant, { enabled: canViewGroups });
  const exportDevices = useExportDevices(tenant);
  const columnChoice = useColumnChoice('devices', useDeviceColumns());

  // The selection belongs to one page of one tenant's query; it is dropped when any of them changes.
  const selection = useListSelection<DeviceListItem>(JSON.stringify([tenant, query]));
  const selected = selection.selected;
  const [dialog, setDialog] = useState<'rules' | 'move' | 'delete' | null>(null);
  const bulk = useBulkDevices(tenant, {
    onSuccess: ({ affected }, input) => {
      showSuccess(resultText(input.action, affected, input.ids.length));
      selection.clear();
      setDialog(null);
    },
  });
  const runBulk = (action: BulkAction, policyGroupId?: string) =>
    bulk.mutate({
      action,
      ids: selected.map((device) => device.id),
      ...(policyGroupId ? { policyGroupId } : {}),
    });

  const setFilter = (patch: Partial<DevicesListState>) => setState({ ...patch, page: 1 });
  const allOption = (label: string) => ({ value: 'all', label });

  const addButton = canCreate ? (
    <Button component={Link} to="/devices/add">
      {t('devices.inventory.add', 'Add device')}
    </Button>
  ) : null;

  const bulkBar =
    canUpdate && selected.length > 0 ? (
      <Group gap="sm" wrap="wrap">
        <SelectedCount count={selected.length} />
        <Button variant="light" loading={bulk.isPending} onClick={() => runBulk('approve')}>
          {t('devices.bulk.approve', 'Approve')}
        </Button>
        <Button variant="light" disabled={bulk.isPending} onClick={() => runBulk('enable')}>
          {t('devices.bulk.enable', 'Enable')}
        </Button>
        <Button variant="light" disabled={bulk.isPending} onClick={() => runBulk('disable')}>
          {t('devices.bulk.disable', 'Disable')}
        </Button>
        {canMove ? (
          <Button variant="light" disabled={bulk.isPending} onClick={() => setDialog('move')}>
            {t('devices.bulk.move', 'Move to policy group')}
          </Button>
        ) : null}
        {canDelete ? (
          <Button color="red" variant="light" disabled={bulk.isPending} onClick={() => setDialog('delete')}>
            {t('devices.bulk.delete', 'Delete')}
          </Button>
        ) : null}
      </Group>
    ) : null;

  return (
    <>
      <PageHeader
        title={t('devices.inventory.title', 'Devices')}
        description={listTotalText(t, list.data, (count) =>
          t('devices.inventory.total', {
            count,
            defaultValue_one: '{{count, number}} device',
            defaultValue_other: '{{count, number}} devices',
          }),
        )}
        actions={
          <>
            <Button
              variant="default"
              loading={exportDevices.isPending}
              onClick={() => exportDevices.mutate(toDevicesExportQuery(state))}
            >
              {t('devices.inventory.export', 'Export CSV')}
            </Button>
            {canUpdate ? (
              <Button variant="default" onClick={() => setDialog('rules')}>
                {t('devices.inventory.rules', 'Device rules')}
              </Button>
            ) : null}
            {canAddSite ? (
              <Button component={Link} to="/devices/new/add" variant="default">
                {t('devices.inventory.addSite', 'Add site gateway')}
              </Button>
            ) : null}
            {addButton}
          </>
        }
      />
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('devices.inventory.live', 'Status refreshes every 10 seconds while this tab is open.')}
        </Text>
        <Group align="flex-end" gap="md" wrap="wrap">
          <ListSearch
            value={state.q}
            onSearch={search}
            label={t('devices.inventory.search', 'Search')}
            placeholder={t('devices.inventory.searchPlaceholder', 'Device name or user')}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id={kindLabelId}>
              {t('devices.filter.kind', 'Kind')}
            </Text>
            <SegmentedControl
              aria-labelledby={kindLabelId}
              orientation={isPhone ? 'vertical' : 'horizontal'}
              fullWidth={isPhone}
              value={state.kind}
              onChange={(value) => setFilter({ kind: value as DevicesListState['kind'] })}
              data={[
                { value: 'all', label: t('devices.filter.kindAll', 'All') },
                ...DEVICE_KINDS.map((kind) => ({
                  value: kind,
                  label:
                    kind === 'endpoint'
                      ? t('devices.filter.kindEndpoint', 'Endpoints')
                      : t('devices.filter.kindSite', 'Site gateways'),
                })),
              ]}
            />
          </Stack>
        </Group>
        <ListToolbar
          search={
            <Group align="flex-end" gap="md" wrap="wrap">
              <Select
                label={t('devices.filter.os', 'OS type')}
                data={[
                  allOption(t('devices.filter.osAll', 'All systems')),
                  ...DEVICE_OS.map((os) => ({ value: os, label: osLabels[os] })),
                ]}
                allowDeselect={false}
                value={state.os}
                onChange={(value) => setFilter({ os: (value ?? 'all') as DevicesListState['os'] })}
                w={{ base: '100%', sm: 180 }}
              />
              <Select
                label={t('devices.filter.status', 'Status')}
                data={[
                  allOption(t('devices.filter.statusAll', 'All statuses')),
                  ...DEVICE_STATUSES.map((status) => ({ value: status, label: statusLabels[status] })),
                ]}
                allowDeselect={false}
                value={state.status}
                onChange={(value) => setFilter({ status: (value ?? 'all') as DevicesListState['status'] })}
                w={{ base: '100%', sm: 160 }}
              />
              <Select
                label={t('devices.filter.state', 'State')}
                data={[
                  allOption(t('devices.filter.stateAll', 'All states')),
                  ...DEVICE_STATES.map((value) => ({ value, label: stateLabels[value] })),
                ]}
                allowDeselect={false}
                value={state.state}
                onChange={(value) => setFilter({ state: (value ?? 'all') as DevicesListState['state'] })}
                w={{ base: '100%', sm: 200 }}
              />
              <EndUserSelect
                label={t('devices.filter.owner', 'Owner')}
                placeholder={t('devices.filter.ownerAll', 'Any user')}
                value={state.userId || null}
                onChange={(user) => setFilter({ userId: user?.id ?? '' })}
                w={{ base: '100%', sm: 240 }}
              />
              {canViewGroups ? (
                <Select
                  label={t('devices.filter.group', 'User group')}
                  placeholder={t('devices.filter.groupAll', 'Any group')}
                  data={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
                  searchable
                  clearable
                  nothingFoundMessage={t('devices.filter.noGroups', 'No groups found')}
                  value={state.groupId || null}
                  onChange={(value) => setFilter({ groupId: value ?? '' })}
                  w={{ base: '100%', sm: 200 }}
                />
              ) : null}
            </Group>
          }
          bulkBar={bulkBar}
          actions={<ColumnChooser choice={columnChoice} />}
        />
        <ServerList<DeviceListItem>
          query={list}
          columns={columnChoice.columns}
          texts={{
            loading: t('devices.inventory.loading', 'Loading devices…'),
            empty: t('devices.inventory.empty', 'No devices yet. Enrol an endpoint or add a site gateway.'),
            noMatch: t('devices.inventory.noMatch', 'No devices match these filters.'),
            perPage: t('devices.inventory.pageSize', 'Devices per page'),
          }}
          page={state.page}
          pageSize={state.pageSize}
          onPageChange={(page) => setState({ page })}
          onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
          sort={{ column: state.sort, order: state.order }}
          onSortChange={({ column, order }) => setState({ sort: column as DeviceSort, order, page: 1 })}
          isFiltered={isNarrowed(state)}
          emptyAction={addButton}
          selection={
            canUpdate
              ? {
                  selected,
                  onChange: selection.setSelected,
                  allLabel: t('devices.inventory.selectAll', 'Select all devices on this page'),
                  rowLabel: (device) =>
                    t('devices.inventory.select', 'Select {{name}}', { name: device.name }),
                }
              : undefined
          }
          pinFirstColumn
        />
      </Stack>
      {canUpdate ? (
        <DeviceRulesModal opened={dialog === 'rules'} tenant={tenant} onClose={() => setDialog(null)} />
      ) : null}
      {canMove ? (
        <MoveDevicesModal
          opened={dialog === 'move'}
          tenant={tenant}
          count={selected.length}
          isBusy={bulk.isPending}
          onClose={() => setDialog(null)}
          onMove={(policyGroupId) => runBulk('move', policyGroupId)}
        />
      ) : null}
      <ConfirmModal
        opened={dialog === 'delete'}
        title={t('devices.bulk.deleteTitle', {
          count: selected.length,
          defaultValue_one: 'Delete {{count, number}} device?',
          defaultValue_other: 'Delete {{count, number}} devices?',
        })}
        message={t(
          'devices.bulk.deleteMessage',
          'They lose their tunnel at once and must enrol again to reconnect. Site gateways are left out: retire them on their gateway page. This cannot be undone.',
        )}
        confirmLabel={t('devices.bulk.deleteConfirm', 'Delete devices')}
        isDestructive
        isBusy={bulk.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() => runBulk('delete')}
      />
    </>
  );
}
