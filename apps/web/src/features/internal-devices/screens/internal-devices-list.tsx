import { Group, Select, Stack, Text } from '@mantine/core';
import type { InternalDevice, InternalDeviceSort } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { ColumnChooser, useColumnChoice } from '../../../components/list/column-choice';
import { ListSearch } from '../../../components/list/list-search';
import { ListToolbar, listTotalText, ServerList } from '../../../components/list/server-list';
import { useListAddress } from '../../../components/list/use-list-address';
import { PageHeader } from '../../../components/ui/page-header';
import { useWorkingTenant } from '../../../lib/auth';
import { useInternalDevices } from '../api/get-internal-devices';
import { useSiteGateways } from '../api/get-site-gateways';
import { useInternalDeviceColumns } from '../components/internal-device-columns';
import {
  type InternalDevicesListState,
  internalDevicesListCodec,
  isNarrowed,
  toInternalDevicesQuery,
} from '../utils/list-params';

/**
 * `/devices/internal-devices`: the hosts the tenant's site gateways see on their networks (DHCP leases and ARP
 * tables, reported with every heartbeat) on the shared server-paged list — search, gateway and order kept in the
 * address, seen last first, refreshed every 15 seconds while the tab is visible.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const { state, setState, search } = useListAddress(internalDevicesListCodec);
  const list = useInternalDevices(tenant, toInternalDevicesQuery(state));
  const gateways = useSiteGateways(tenant);
  const columnChoice = useColumnChoice('internal-devices', useInternalDeviceColumns());
  const setFilter = (patch: Partial<InternalDevicesListState>) => setState({ ...patch, page: 1 });

  return (
    <>
      <PageHeader
        title={t('internalDevices.title', 'Internal devices')}
        description={listTotalText(t, list.data, (count) =>
          t('internalDevices.total', {
            count,
            defaultValue_one: '{{count, number}} device',
            defaultValue_other: '{{count, number}} devices',
          }),
        )}
      />
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t(
            'internalDevices.intro',
            'Hosts the site gateways see on their networks, from their DHCP leases and ARP tables. A host seen in the last 10 minutes is active. The list refreshes every 15 seconds while this tab is open.',
          )}
        </Text>
        <ListToolbar
          search={
            <Group align="flex-end" gap="md" wrap="wrap">
              <ListSearch
                value={state.q}
                onSearch={search}
                label={t('internalDevices.search', 'Search')}
                placeholder={t('internalDevices.searchPlaceholder', 'Host name, IP, MAC or vendor')}
              />
              <Select
                label={t('internalDevices.filter.gateway', 'Gateway')}
                placeholder={t('internalDevices.filter.gatewayAll', 'All site gateways')}
                data={(gateways.data ?? []).map((gateway) => ({ value: gateway.id, label: gateway.name }))}
                searchable
                clearable
                nothingFoundMessage={t('internalDevices.filter.noGateways', 'No site gateways found')}
                value={state.gatewayId || null}
                onChange={(value) => setFilter({ gatewayId: value ?? '' })}
                w={{ base: '100%', sm: 240 }}
              />
            </Group>
          }
          actions={<ColumnChooser choice={columnChoice} />}
        />
        <ServerList<InternalDevice>
          query={list}
          columns={columnChoice.columns}
          texts={{
            loading: t('internalDevices.loading', 'Loading internal devices…'),
            empty: t(
              'internalDevices.empty',
              'No hosts seen yet. Site gateways report the hosts on their networks with every heartbeat.',
            ),
            noMatch: t('internalDevices.noMatch', 'No internal devices match these filters.'),
            perPage: t('internalDevices.pageSize', 'Devices per page'),
          }}
          page={state.page}
          pageSize={state.pageSize}
          onPageChange={(page) => setState({ page })}
          onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
          sort={{ column: state.sort, order: state.order }}
          onSortChange={({ column, order }) =>
            setState({ sort: column as InternalDeviceSort, order, page: 1 })
          }
          isFiltered={isNarrowed(state)}
          pinFirstColumn
        />
      </Stack>
    </>
  );
}
