import { Badge, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { SUBSCRIPTION_STATUSES } from '@palisade/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../components/charts/format';
import { toTableColumns } from '../../../components/list/column-choice';
import { ListSearch } from '../../../components/list/list-search';
import { ListToolbar, listTotalText, ServerList } from '../../../components/list/server-list';
import { type PartnerUsageListRow, usePartnerUsage } from '../api/get-usage';
import { percentOf } from '../utils/format';
import { toPartnerUsageQuery, type UsageScreenState } from '../utils/list-params';
import { SubscriptionStatusBadge, useLocale, usePlanNames, useStatusLabels } from './labels';

/** Props of {@link PartnerUsageTable}. */
export interface PartnerUsageTableProps {
  /** The console's own tenant (the partner's or the platform's). */
  consoleTenant: string;
  state: UsageScreenState;
  setState: (patch: Partial<UsageScreenState>, options?: { replace?: boolean }) => void;
  search: (q: string) => void;
}

/**
 * Every tenant the partner manages (every tenant, for the platform) with its plan, status, seats and use, over
 * the limit said in words; server-paged, searched and filtered by status. Above it, the totals over every managed
 * tenant (not only the page).
 */
export function PartnerUsageTable({ consoleTenant, state, setState, search }: PartnerUsageTableProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const headingId = useId();
  const planNames = usePlanNames();
  const statusLabels = useStatusLabels();
  const list = usePartnerUsage(consoleTenant, toPartnerUsageQuery(state), true);
  const count = (value: number) => formatCount(value, locale);
  const totals = list.data?.totals;

  // Phones keep the tenant, its status and how much of its seats it uses.
  const columns = toTableColumns<PartnerUsageListRow>([
    {
      accessor: 'tenant',
      isEssential: true,
      title: t('subscriptions.rollup.column.tenant', 'Tenant'),
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {row.displayName}
          </Text>
          <Text size="xs" c="dimmed">
            {row.tenant}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'plan',
      title: t('subscriptions.rollup.column.plan', 'Plan'),
      render: (row) => (row.plan ? planNames[row.plan] : t('subscriptions.rollup.noPlan', 'No subscription')),
    },
    {
      accessor: 'status',
      isEssential: true,
      title: t('subscriptions.rollup.column.status', 'Status'),
      render: (row) => (row.status ? <SubscriptionStatusBadge status={row.status} /> : '—'),
    },
    {
      accessor: 'seats',
      title: t('subscriptions.rollup.column.seats', 'Seats'),
      textAlign: 'right',
      render: (row) => (row.seats === null ? '—' : count(row.seats)),
    },
    {
      accessor: 'users',
      title: t('subscriptions.rollup.column.users', 'End users'),
      textAlign: 'right',
      render: (row) => count(row.used.users),
    },
    {
      accessor: 'devices',
      title: t('subscriptions.rollup.column.devices', 'Devices'),
      textAlign: 'right',
      render: (row) => count(row.used.devices),
    },
    {
      accessor: 'percent',
      isEssential: true,
      title: t('subscriptions.rollup.column.percent', '% used'),
      textAlign: 'right',
      noWrap: true,
      render: (row) => {
        if (row.seats === null) return '—';
        const percent = t('subscriptions.rollup.percent', '{{percent}} %', {
          percent: count(percentOf(row.used.users, row.seats)),
        });
        return row.used.users > row.seats ? (
          <Group gap={6} justify="flex-end" wrap="nowrap">
            <Text span size="sm" fw={700}>
              {percent}
            </Text>
            <Badge color="red" variant="filled" radius="sm">
              {t('subscriptions.rollup.over', 'Over the limit')}
            </Badge>
          </Group>
        ) : (
          percent
        );
      },
    },
  ]);

  const total = listTotalText(t, list.data, (n) =>
    t('subscriptions.rollup.total', {
      count: n,
      defaultValue_one: '{{count, number}} tenant',
      defaultValue_other: '{{count, number}} tenants',
    }),
  );

  return (
    <Stack gap="md" component="section" aria-labelledby={headingId}>
      <Stack gap={2}>
        <Title order={2} size="h4" id={headingId}>
          {t('subscriptions.rollup.title', 'Managed tenants')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('subscriptions.rollup.intro', 'Plan, seats and use of every tenant you manage.')}
        </Text>
      </Stack>
      {totals ? (
        <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} spacing="md" m={0}>
          {[
            { label: t('subscriptions.rollup.totals.tenants', 'Tenants'), value: count(totals.tenants) },
            { label: t('subscriptions.rollup.totals.seats', 'Seats purchased'), value: count(totals.seats) },
            {
              label: t('subscriptions.rollup.totals.users', 'End users'),
              value: t('subscriptions.rollup.totals.usersValue', '{{users}} ({{percent}} % of the seats)', {
                users: count(totals.users),
                percent: count(percentOf(totals.users, totals.seats)),
              }),
            },
            { label: t('subscriptions.rollup.totals.devices', 'Devices'), value: count(totals.devices) },
          ].map((item) => (
            <div key={item.label}>
              <Text component="dt" size="xs" c="dimmed" fw={500}>
                {item.label}
              </Text>
              <Text component="dd" fw={600} m={0}>
                {item.value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      ) : null}
      <ListToolbar
        search={
          <Group align="flex-end" gap="md" wrap="wrap">
            <ListSearch
              value={state.q}
              onSearch={search}
              label={t('subscriptions.rollup.search', 'Search tenants')}
              placeholder={t('subscriptions.rollup.searchPlaceholder', 'Name or display name')}
            />
            <Select
              label={t('subscriptions.rollup.filter', 'Subscription status')}
              data={[
                { value: 'all', label: t('subscriptions.rollup.filterAll', 'All statuses') },
                ...SUBSCRIPTION_STATUSES.map((status) => ({ value: status, label: statusLabels[status] })),
              ]}
              allowDeselect={false}
              value={state.status}
              onChange={(value) =>
                setState({ status: (value ?? 'all') as UsageScreenState['status'], page: 1 })
              }
              w={{ base: '100%', sm: 220 }}
            />
          </Group>
        }
        actions={
          total ? (
            <Text size="sm" c="dimmed">
              {total}
            </Text>
          ) : null
        }
      />
      <ServerList<PartnerUsageListRow>
        query={list}
        columns={columns}
        label={t('subscriptions.rollup.table', 'Subscriptions of the managed tenants')}
        texts={{
          loading: t('subscriptions.rollup.loading', 'Loading the tenants…'),
          empty: t('subscriptions.rollup.empty', 'No managed tenants yet.'),
          noMatch: t('subscriptions.rollup.noMatch', 'No tenants match these filters.'),
          perPage: t('subscriptions.rollup.pageSize', 'Tenants per page'),
        }}
        page={state.page}
        pageSize={state.pageSize}
        onPageChange={(page) => setState({ page })}
        onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
        isFiltered={state.q.trim() !== '' || state.status !== 'all'}
        pinFirstColumn
      />
    </Stack>
  );
}
