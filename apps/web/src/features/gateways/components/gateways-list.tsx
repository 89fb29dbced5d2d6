import { Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { GATEWAY_STATUSES, type Gateway } from '@palisade/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ColumnChooser, useColumnChoice } from '../../../components/list/column-choice';
import { ListSearch } from '../../../components/list/list-search';
import { ListToolbar, listTotalText, ServerList } from '../../../components/list/server-list';
import { useListAddress } from '../../../components/list/use-list-address';
import { PageHeader } from '../../../components/ui/page-header';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { useGateways } from '../api/get-gateways';
import {
  GATEWAY_KIND_FILTERS,
  type GatewayKindFilter,
  type GatewaySort,
  type GatewayStatusFilter,
  gatewaysListCodec,
  toGatewaysQuery,
} from '../utils/list-params';
import { AddGatewayModal } from './add-gateway-modal';
import { useGatewayColumns } from './gateway-columns';
import { useKindFilterLabels, useStatusLabels } from './labels';
import { PolicyBundlesButton } from './policy-bundles-button';

/** Props of {@link GatewaysList}. */
export interface GatewaysListProps {
  /** Lists this kind only, without the kind filter (the virtual cybernodes screen). */
  fixedKind?: 'virtual';
}

/**
 * The tenant's gateways on the shared server-paged list: search, kind and status filters and the order kept in
 * the address, refreshed every heartbeat while the tab is visible, and "Add gateway" for those allowed to.
 */
export function GatewaysList({ fixedKind }: GatewaysListProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('gateways:create');
  const kindLabelId = useId();
  const isPhone = useMediaQuery('(max-width: 48em)') ?? false;
  const kindFilterLabels = useKindFilterLabels();
  const statusLabels = useStatusLabels();
  const [isAddOpen, setAddOpen] = useState(false);

  const { state, setState, search } = useListAddress(gatewaysListCodec);
  const query = toGatewaysQuery(state, fixedKind);
  const list = useGateways(tenant, query);
  const columnChoice = useColumnChoice(
    fixedKind ? `gateways-${fixedKind}` : 'gateways',
    useGatewayColumns({ isKindShown: !fixedKind }),
  );

  const isFiltered = state.q.trim() !== '' || state.status !== 'all' || (!fixedKind && state.kind !== 'all');
  const addButton = canCreate ? (
    <Button onClick={() => setAddOpen(true)}>
      {fixedKind
        ? t('gateways.list.addVirtual', 'Add virtual cybernode')
        : t('gateways.list.add', 'Add gateway')}
    </Button>
  ) : null;

  return (
    <>
      <PageHeader
        title={
          fixedKind
            ? t('gateways.list.virtualTitle', 'Virtual cybernodes')
            : t('gateways.list.title', 'Cybernodes and site gateways')
        }
        description={listTotalText(t, list.data, (count) =>
          t('gateways.list.total', {
            count,
            defaultValue_one: '{{count, number}} gateway',
            defaultValue_other: '{{count, number}} gateways',
          }),
        )}
        actions={
          <>
            <Button component={Link} to="/servers-nwmap" variant="default">
              {t('gateways.map.open', 'Network map')}
            </Button>
            <PolicyBundlesButton tenant={tenant} />
            {addButton}
          </>
        }
      />
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('gateways.list.live', 'Status and load refresh every 5 seconds while this tab is open.')}
        </Text>
        <ListToolbar
          search={
            <Group align="flex-end" gap="md" wrap="wrap">
              <ListSearch
                value={state.q}
                onSearch={search}
                label={t('gateways.list.search', 'Search')}
                placeholder={t('gateways.list.searchPlaceholder', 'Name or hostname')}
              />
              {fixedKind ? null : (
                <Stack gap={4}>
                  <Text size="sm" fw={500} id={kindLabelId}>
                    {t('gateways.filter.kind', 'Kind')}
                  </Text>
                  <SegmentedControl
                    aria-labelledby={kindLabelId}
                    orientation={isPhone ? 'vertical' : 'horizontal'}
                    fullWidth={isPhone}
                    value={state.kind}
                    onChange={(value) => setState({ kind: value as GatewayKindFilter, page: 1 })}
                    data={GATEWAY_KIND_FILTERS.map((kind) => ({
                      value: kind,
                      label: kindFilterLabels[kind],
                    }))}
                  />
                </Stack>
              )}
              <Select
                label={t('gateways.filter.status', 'Status')}
                data={[
                  { value: 'all', label: t('gateways.filter.statusAll', 'All statuses') },
                  ...GATEWAY_STATUSES.map((status) => ({ value: status, label: statusLabels[status] })),
                ]}
                allowDeselect={false}
                value={state.status}
                onChange={(value) => setState({ status: (value ?? 'all') as GatewayStatusFilter, page: 1 })}
                w={{ base: '100%', sm: 200 }}
              />
            </Group>
          }
          actions={<ColumnChooser choice={columnChoice} />}
        />
        <ServerList<Gateway>
          query={list}
          columns={columnChoice.columns}
          texts={{
            loading: t('gateways.list.loading', 'Loading gateways…'),
            empty: fixedKind
              ? t('gateways.list.emptyVirtual', 'No virtual cybernodes yet.')
              : t('gateways.list.empty', 'No gateways yet.'),
            noMatch: t('gateways.list.noMatch', 'No gateways match these filters.'),
            perPage: t('gateways.list.pageSize', 'Gateways per page'),
          }}
          page={state.page}
          pageSize={state.pageSize}
          onPageChange={(page) => setState({ page })}
          onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
          sort={{ column: state.sort, order: state.order }}
          onSortChange={({ column, order }) => setState({ sort: column as GatewaySort, order, page: 1 })}
          isFiltered={isFiltered}
          emptyAction={addButton}
          pinFirstColumn
        />
      </Stack>
      {canCreate ? (
        <AddGatewayModal
          opened={isAddOpen}
          onClose={() => setAddOpen(false)}
          tenant={tenant}
          defaultKind={fixedKind ?? 'cybernode'}
        />
      ) : null}
    </>
  );
}
