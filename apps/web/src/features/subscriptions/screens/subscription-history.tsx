import { Button, Select, Stack, Text } from '@mantine/core';
import {
  buildPath,
  SUBSCRIPTION_EVENT_KINDS,
  type SubscriptionEvent,
  type SubscriptionEventKind,
} from '@palisade/contracts';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toTableColumns } from '../../../components/list/column-choice';
import { ListToolbar, listTotalText, ServerList } from '../../../components/list/server-list';
import { useListAddress } from '../../../components/list/use-list-address';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, LoadingState } from '../../../components/ui/query-state';
import { useCan } from '../../../lib/auth';
import { useSubscriptionHistory } from '../api/get-history';
import { ChangeSummary, useChangeFields } from '../components/change-summary';
import { useLocale } from '../components/labels';
import { formatDateTime } from '../utils/format';
import { type HistoryListState, historyListCodec, toHistoryQuery } from '../utils/list-params';

/** The translated kinds of change (`subscriptionHistory:kinds.*`). */
export function useKindLabels(): Record<SubscriptionEventKind, string> {
  const { t: th } = useTranslation('subscriptionHistory');
  return {
    trial_started: th('kinds.trial_started', 'Trial started'),
    plan_changed: th('kinds.plan_changed', 'Plan changed'),
    billing_cycle_changed: th('kinds.billing_cycle_changed', 'Billing cycle changed'),
    seats_changed: th('kinds.seats_changed', 'Seats changed'),
    addon_added: th('kinds.addon_added', 'Add-on added'),
    addon_removed: th('kinds.addon_removed', 'Add-on removed'),
    payment_method_updated: th('kinds.payment_method_updated', 'Payment method changed'),
    cancelled: th('kinds.cancelled', 'Cancelled'),
    resumed: th('kinds.resumed', 'Resumed'),
    renewed: th('kinds.renewed', 'Renewed'),
    payment_failed: th('kinds.payment_failed', 'Payment failed'),
    payment_succeeded: th('kinds.payment_succeeded', 'Payment succeeded'),
    past_due: th('kinds.past_due', 'Payment overdue'),
    expired: th('kinds.expired', 'Expired'),
    payment_refunded: th('kinds.payment_refunded', 'Payment refunded'),
    change_scheduled: th('kinds.change_scheduled', 'Change scheduled for the period end'),
  };
}

/** The history list: every change, newest first, paged on the server, filtered by kind (in the address). */
function HistoryList({ tenant }: { tenant: string }) {
  const { t: th } = useTranslation('subscriptionHistory');
  const { t } = useTranslation();
  const locale = useLocale();
  const kinds = useKindLabels();
  const changeFields = useChangeFields();
  const { state, setState } = useListAddress(historyListCodec);
  const list = useSubscriptionHistory(tenant, toHistoryQuery(state));

  // Phones keep the time and the change (its kind over what changed); who made it shows from `sm` up.
  const columns = toTableColumns<SubscriptionEvent>([
    {
      accessor: 'createdAt',
      title: th('column.when', 'When'),
      isEssential: true,
      render: (event) => <time dateTime={event.createdAt}>{formatDateTime(event.createdAt, locale)}</time>,
    },
    {
      accessor: 'kind',
      title: th('column.kind', 'Change'),
      isEssential: true,
      render: (event) => (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {kinds[event.kind]}
          </Text>
          <ChangeSummary changes={changeFields(event)} />
        </Stack>
      ),
    },
    {
      accessor: 'actor',
      title: th('column.actor', 'Who'),
      render: (event) => event.actor ?? th('system', 'System'),
    },
  ]);

  const count = listTotalText(t, list.data, (total) =>
    th('total', {
      count: total,
      defaultValue_one: '{{count, number}} change',
      defaultValue_other: '{{count, number}} changes',
    }),
  );

  return (
    <Stack gap="md">
      <ListToolbar
        search={
          <Select
            label={th('filter.kind', 'Kind of change')}
            data={[
              { value: 'all', label: th('filter.all', 'All changes') },
              ...SUBSCRIPTION_EVENT_KINDS.map((kind) => ({ value: kind, label: kinds[kind] })),
            ]}
            allowDeselect={false}
            value={state.kind}
            onChange={(value) => setState({ kind: (value ?? 'all') as HistoryListState['kind'], page: 1 })}
            w={{ base: '100%', sm: 260 }}
          />
        }
        actions={
          count ? (
            <Text size="sm" c="dimmed">
              {count}
            </Text>
          ) : null
        }
      />
      <ServerList<SubscriptionEvent>
        query={list}
        columns={columns}
        label={th('title', 'Subscription history')}
        texts={{
          loading: th('loading', 'Loading the history…'),
          empty: th('empty', 'No subscription changes yet.'),
          noMatch: th('noMatch', 'No changes of this kind.'),
          perPage: th('pageSize', 'Changes per page'),
        }}
        page={state.page}
        pageSize={state.pageSize}
        onPageChange={(page) => setState({ page })}
        onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
        isFiltered={state.kind !== 'all'}
      />
    </Stack>
  );
}

/** The header: the title in the `subscriptionHistory` namespace, which loads with the screen. */
function HistoryHeader({ tenant }: { tenant: string }) {
  const { t: th } = useTranslation('subscriptionHistory');
  return (
    <PageHeader
      title={th('title', 'Subscription history')}
      description={th(
        'description',
        'Every change of the plan, seats, add-ons, payment method and payments, newest first.',
      )}
      actions={
        <Button component={Link} to={buildPath('/tenant/:id/subscriptions/', tenant)} variant="default">
          {th('back', 'Back to the subscription')}
        </Button>
      }
    />
  );
}

/**
 * `/tenant/:id/subscriptions/history` (id = tenant name): every change of the subscription, newest first and
 * server-paged, with its kind, what it was before and after, who made it (or the system: renewals, retries,
 * the provider's events) and when. Strings in the `subscriptionHistory` namespace.
 */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const canView = useCan('billing:view');
  return (
    <Suspense fallback={<LoadingState />}>
      <HistoryHeader tenant={id} />
      {canView ? (
        <HistoryList tenant={id} />
      ) : (
        <EmptyState
          message={t('subscriptions.notAllowed', 'Your role does not include the subscription and billing.')}
        />
      )}
    </Suspense>
  );
}
