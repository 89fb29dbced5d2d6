import 'mantine-datatable/styles.css';
import { Badge, Button, Group, Modal, Select, Stack, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { ACCESS_APPROVAL_CHOICES, type AccessRequest, type AccessRequestStatus } from '@palisade/contracts';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { formatDateTime, useFormatters } from '../../../lib/format-time';
import { showSuccess } from '../../../lib/mutation-toast';
import { useAccessRequests, useDecideAccessRequest } from '../api/access-requests';

/** Requests per page. */
export const ACCESS_REQUESTS_PAGE_SIZE = 25;

type Filter = AccessRequestStatus | 'all';
const FILTERS: Filter[] = ['pending', 'approved', 'declined', 'expired', 'all'];
const STATUS_COLORS: Record<AccessRequestStatus, string> = {
  pending: 'yellow',
  approved: 'green',
  declined: 'gray',
  expired: 'gray',
};

/** The approval durations, labelled: "15 minutes", "4 hours", "7 days". */
function useDurationOptions() {
  const { duration } = useFormatters();
  return ACCESS_APPROVAL_CHOICES.map((minutes) => ({
    value: String(minutes),
    label: duration(minutes * 60_000, { style: 'long' }),
  }));
}

function DecideModal({
  request,
  verb,
  tenant,
  onClose,
}: {
  request: AccessRequest | null;
  verb: 'approve' | 'decline';
  tenant: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const durations = useDurationOptions();
  const [minutes, setMinutes] = useState('60');
  const [note, setNote] = useState('');
  const decide = useDecideAccessRequest(tenant, {
    onSuccess: () => {
      showSuccess(
        verb === 'approve'
          ? t('blockPage.admin.approved', 'Access approved')
          : t('blockPage.admin.declined', 'Request declined'),
      );
      setNote('');
      onClose();
    },
  });
  const target = request ? (request.user?.name ?? request.client ?? '') : '';
  return (
    <Modal
      opened={request !== null}
      onClose={decide.isPending ? () => {} : onClose}
      title={
        verb === 'approve'
          ? t('blockPage.admin.approveTitle', 'Approve access to {{host}}', { host: request?.host ?? '' })
          : t('blockPage.admin.declineTitle', 'Decline access to {{host}}', { host: request?.host ?? '' })
      }
      centered
    >
      <Stack gap="md">
        <Text size="sm">
          {verb === 'approve'
            ? t(
                'blockPage.admin.approveText',
                '{{user}} can open {{host}} for the time you choose; then it is blocked again. They get a mail.',
                { user: target, host: request?.host ?? '' },
              )
            : t('blockPage.admin.declineText', '{{user}} gets a mail saying the request was declined.', {
                user: target,
              })}
        </Text>
        {verb === 'approve' ? (
          <Select
            label={t('blockPage.admin.duration', 'Allow for')}
            data={durations}
            value={minutes}
            onChange={(value) => setMinutes(value ?? '60')}
            allowDeselect={false}
          />
        ) : (
          <Textarea
            label={t('blockPage.admin.note', 'Note to the user (optional)')}
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            maxLength={500}
            autosize
            minRows={2}
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={decide.isPending}>
            {t('common.cancel', 'Cancel')}
          </Button>
          <Button
            color={verb === 'decline' ? 'red' : undefined}
            loading={decide.isPending}
            onClick={() =>
              request &&
              decide.mutate(
                verb === 'approve'
                  ? { id: request.id, verb, minutes: Number(minutes) }
                  : { id: request.id, verb, ...(note.trim() ? { note: note.trim() } : {}) },
              )
            }
          >
            {verb === 'approve'
              ? t('blockPage.admin.approve', 'Approve')
              : t('blockPage.admin.decline', 'Decline')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function AccessRequestsList({ tenant }: { tenant: string }) {
  const { t } = useTranslation();
  const canDecide = useCan('policies:update');
  const [filter, setFilter] = useState<Filter>('pending');
  const [page, setPage] = useState(1);
  const [toDecide, setToDecide] = useState<{ request: AccessRequest; verb: 'approve' | 'decline' } | null>(
    null,
  );
  const requests = useAccessRequests(tenant, {
    limit: ACCESS_REQUESTS_PAGE_SIZE,
    offset: (page - 1) * ACCESS_REQUESTS_PAGE_SIZE,
    ...(filter === 'all' ? {} : { status: filter }),
  });

  const columns: DataTableColumn<AccessRequest>[] = [
    {
      accessor: 'host',
      title: t('blockPage.admin.column.site', 'Site'),
      render: (r) => (
        <Stack gap={0}>
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {r.host}
          </Text>
          {r.ruleKind ? (
            <Text size="xs" c="dimmed">
              {t(`blockPage.kinds.${r.ruleKind}`, {
                defaultValue: t('blockPage.kinds.other', 'A policy rule'),
              })}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'user',
      title: t('blockPage.admin.column.user', 'User'),
      render: (r) => (
        <Stack gap={0}>
          <Text size="sm">{r.user?.name ?? t('blockPage.admin.unknownUser', 'Unknown user')}</Text>
          {r.client ? (
            <Text size="xs" c="dimmed">
              {r.client}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'reason',
      title: t('blockPage.admin.column.reason', 'Reason'),
      render: (r) => (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {r.reason}
        </Text>
      ),
    },
    {
      accessor: 'createdAt',
      title: t('blockPage.admin.column.asked', 'Asked'),
      render: (r) => <Text size="sm">{formatDateTime(r.createdAt)}</Text>,
    },
    {
      accessor: 'status',
      title: t('blockPage.admin.column.status', 'Status'),
      render: (r) => (
        <Stack gap={2}>
          <Badge color={STATUS_COLORS[r.status]} variant="light">
            {t(`blockPage.status.${r.status}`, r.status)}
          </Badge>
          {r.status === 'approved' && r.expiresAt ? (
            <Text size="xs" c="dimmed">
              {t('blockPage.admin.until', 'until {{time}}', { time: formatDateTime(r.expiresAt) })}
            </Text>
          ) : null}
          {r.note ? (
            <Text size="xs" c="dimmed">
              {r.note}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'actions',
      title: <VisuallyHidden>{t('blockPage.admin.column.actions', 'Actions')}</VisuallyHidden>,
      textAlign: 'right',
      render: (r) =>
        canDecide && r.status === 'pending' ? (
          <Group gap="xs" justify="flex-end" wrap="nowrap">
            <Button
              size="xs"
              onClick={() => setToDecide({ request: r, verb: 'approve' })}
              aria-label={t('blockPage.admin.approveLabel', 'Approve access to {{host}} for {{user}}', {
                host: r.host,
                user: r.user?.name ?? r.client ?? '',
              })}
            >
              {t('blockPage.admin.approve', 'Approve')}
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => setToDecide({ request: r, verb: 'decline' })}
              aria-label={t('blockPage.admin.declineLabel', 'Decline access to {{host}} for {{user}}', {
                host: r.host,
                user: r.user?.name ?? r.client ?? '',
              })}
            >
              {t('blockPage.admin.decline', 'Decline')}
            </Button>
          </Group>
        ) : null,
    },
  ];

  return (
    <Stack gap="md">
      {/* Five filters are wider than a phone as a segmented control: a select fits every screen. */}
      <Select
        label={t('blockPage.admin.filter', 'Show requests')}
        value={filter}
        onChange={(value) => {
          if (!value) return;
          setFilter(value as Filter);
          setPage(1);
        }}
        allowDeselect={false}
        data={FILTERS.map((value) => ({ value, label: t(`blockPage.filter.${value}`, value) }))}
        w={220}
      />
      {requests.isError && !requests.data ? (
        <ErrorState error={requests.error} onRetry={() => void requests.refetch()} />
      ) : (
        <DataTable<AccessRequest>
          withTableBorder
          borderRadius="sm"
          minHeight={requests.data?.items.length ? undefined : 160}
          records={requests.data?.items ?? []}
          columns={columns}
          idAccessor="id"
          fetching={requests.isFetching}
          totalRecords={requests.data?.total ?? 0}
          recordsPerPage={ACCESS_REQUESTS_PAGE_SIZE}
          page={page}
          onPageChange={setPage}
          noRecordsText={
            filter === 'pending'
              ? t('blockPage.admin.emptyPending', 'No request waits for a decision.')
              : t('blockPage.admin.empty', 'No access requests.')
          }
          paginationText={({ from, to, totalRecords }) =>
            t('blockPage.admin.pagination', {
              from,
              to,
              total: totalRecords,
              defaultValue: '{{from, number}}–{{to, number}} of {{total, number}}',
            })
          }
          aria-label={t('blockPage.admin.title', 'Access requests')}
        />
      )}
      <DecideModal
        request={toDecide?.request ?? null}
        verb={toDecide?.verb ?? 'approve'}
        tenant={tenant}
        onClose={() => setToDecide(null)}
      />
    </Stack>
  );
}

/**
 * `/policy/access-requests`: what end users asked for from the block page, newest first, pending ones by default;
 * approve (a time-boxed allow for that user) or decline (`policies:update`; the server checks again).
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  return (
    <>
      <PageHeader
        title={t('blockPage.admin.title', 'Access requests')}
        description={t(
          'blockPage.admin.description',
          'End users ask for blocked sites from the block page. An approval allows the site for that user only, for the time you choose.',
        )}
      />
      <AccessRequestsList tenant={tenant} />
    </>
  );
}
