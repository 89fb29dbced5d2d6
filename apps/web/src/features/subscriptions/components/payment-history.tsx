import { Badge, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { PAYMENT_STATUSES, type Payment, type PaymentStatus } from '@palisade/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../components/charts/format';
import { toTableColumns } from '../../../components/list/column-choice';
import { listTotalText, ServerList } from '../../../components/list/server-list';
import { useListAddress } from '../../../components/list/use-list-address';
import { useDownloadInvoice } from '../api/download-invoice';
import { usePayments } from '../api/get-payments';
import { formatDateTime, formatDay, formatMoney } from '../utils/format';
import { type PaymentsListState, paymentsListCodec, toPaymentsQuery } from '../utils/list-params';
import { useLocale } from './labels';

const STATUS_COLORS: Record<PaymentStatus, string> = {
  paid: 'green',
  failed: 'red',
  pending: 'blue',
  refunded: 'gray',
};

/** The translated payment statuses (`paymentHistory:status.*`). */
function usePaymentStatusLabels(): Record<PaymentStatus, string> {
  const { t: tp } = useTranslation('paymentHistory');
  return {
    paid: tp('status.paid', 'Paid'),
    failed: tp('status.failed', 'Failed'),
    pending: tp('status.pending', 'Pending'),
    refunded: tp('status.refunded', 'Refunded'),
  };
}

/**
 * The tenant's invoices, newest first and paged on the server (the page in the address): number, period, amount
 * in the language's money format, payment status with its attempts, and the invoice as a PDF. Its strings are in
 * the `paymentHistory` namespace, loaded with this section.
 */
export function PaymentHistory({ tenant }: { tenant: string }) {
  const { t: tp } = useTranslation('paymentHistory');
  const { t } = useTranslation();
  const locale = useLocale();
  const headingId = useId();
  const statusLabels = usePaymentStatusLabels();
  const { state, setState } = useListAddress(paymentsListCodec);
  const list = usePayments(tenant, toPaymentsQuery(state));
  const download = useDownloadInvoice(tenant);

  // Phones keep the number, amount, status and download; the period and attempts show from `sm` up.
  const columns = toTableColumns<Payment>([
    {
      accessor: 'number',
      isEssential: true,
      title: tp('column.number', 'Invoice'),
      noWrap: true,
      render: (payment) => (
        <Text span size="sm" fw={500}>
          {payment.number}
        </Text>
      ),
    },
    {
      accessor: 'period',
      title: tp('column.period', 'Period'),
      noWrap: true,
      render: (payment) =>
        tp('period', '{{from}} – {{to}}', {
          from: formatDay(payment.periodStart, locale),
          to: formatDay(payment.periodEnd, locale),
        }),
    },
    {
      accessor: 'amount',
      isEssential: true,
      title: tp('column.amount', 'Amount'),
      textAlign: 'right',
      noWrap: true,
      render: (payment) => formatMoney(payment.amount, payment.currency, locale),
    },
    {
      accessor: 'status',
      isEssential: true,
      title: tp('column.status', 'Status'),
      // The badge keeps its word, the dates their line.
      noWrap: true,
      render: (payment) => (
        <Stack gap={2}>
          <Badge color={STATUS_COLORS[payment.status]} variant="light" radius="sm">
            {statusLabels[payment.status]}
          </Badge>
          {payment.status === 'failed' && payment.nextAttemptAt ? (
            <Text size="xs">
              {tp('nextAttempt', 'Next attempt {{date}}', {
                date: formatDateTime(payment.nextAttemptAt, locale),
              })}
            </Text>
          ) : null}
          {payment.status === 'paid' && payment.paidAt ? (
            <Text size="xs" c="dimmed">
              {tp('paidAt', 'Paid {{date}}', { date: formatDay(payment.paidAt, locale) })}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'attempts',
      title: tp('column.attempts', 'Attempts'),
      textAlign: 'right',
      render: (payment) => formatCount(payment.attempts, locale),
    },
    {
      accessor: 'actions',
      isEssential: true,
      title: tp('column.invoice', 'PDF'),
      textAlign: 'right',
      render: (payment) => (
        <Button
          size="compact-sm"
          variant="subtle"
          loading={download.isPending && download.variables?.id === payment.id}
          onClick={() => download.mutate(payment)}
          aria-label={tp('download.label', 'Download invoice {{number}} as PDF', { number: payment.number })}
        >
          {tp('download.button', 'Download PDF')}
        </Button>
      ),
    },
  ]);

  const count = listTotalText(t, list.data, (total) =>
    tp('total', {
      count: total,
      defaultValue_one: '{{count, number}} invoice',
      defaultValue_other: '{{count, number}} invoices',
    }),
  );

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" gap="md">
          <Stack gap={2}>
            <Title order={2} size="h4" id={headingId}>
              {tp('title', 'Payment history')}
            </Title>
            {count ? (
              <Text size="sm" c="dimmed">
                {count}
              </Text>
            ) : null}
          </Stack>
          <Select
            label={tp('filter.status', 'Status')}
            data={[
              { value: 'all', label: tp('filter.all', 'All invoices') },
              ...PAYMENT_STATUSES.map((status) => ({ value: status, label: statusLabels[status] })),
            ]}
            allowDeselect={false}
            value={state.status}
            onChange={(value) =>
              setState({ status: (value ?? 'all') as PaymentsListState['status'], page: 1 })
            }
            w={{ base: '100%', sm: 200 }}
          />
        </Group>
        <ServerList<Payment>
          query={list}
          columns={columns}
          label={tp('table', 'Invoices')}
          texts={{
            loading: tp('loading', 'Loading invoices…'),
            empty: tp('empty', 'No payments yet.'),
            noMatch: tp('noMatch', 'No invoices with this status.'),
            perPage: tp('pageSize', 'Invoices per page'),
          }}
          page={state.page}
          pageSize={state.pageSize}
          onPageChange={(page) => setState({ page })}
          onPageSizeChange={(pageSize) => setState({ pageSize, page: 1 })}
          isFiltered={state.status !== 'all'}
        />
      </Stack>
    </Card>
  );
}
