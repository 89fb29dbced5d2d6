import { Badge, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import type { ReportKind, ReportSchedule } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import {
  useDeleteReportSchedule,
  useReportSchedules,
  useResendRecipientLink,
  useSaveReportSchedule,
  useSendReportSchedule,
} from '../api/schedules';
import { useReportFormat } from '../utils/format';
import { explainMailError } from '../utils/mail-errors';
import { hourLabel, weekdayName } from '../utils/schedule-values';
import { RecipientList } from './recipient-list';
import { ReportCard } from './report-card';
import { ScheduleForm } from './schedule-form';

type Editing = { schedule?: ReportSchedule } | null;

/**
 * The weekly mailings of one report: when, to whom and how the last one went, with "send now"; administrators
 * who may change the dashboard add, edit and delete them.
 */
export function SchedulePanel({ kind }: { kind: ReportKind }) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const format = useReportFormat();
  const canEdit = useCan('dashboard:update');
  const schedules = useReportSchedules(tenant);
  const save = useSaveReportSchedule(tenant);
  const remove = useDeleteReportSchedule(tenant);
  const send = useSendReportSchedule(tenant);
  const resend = useResendRecipientLink(tenant);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ReportSchedule | null>(null);

  const when = (s: ReportSchedule) =>
    t('reports.schedule.when', '{{weekday}} at {{time}} ({{timezone}})', {
      weekday: weekdayName(s.weekday, format.locale),
      time: hourLabel(s.hour),
      timezone: s.timezone,
    });

  const sendNow = (schedule: ReportSchedule) =>
    send.mutate(schedule.id, {
      onSuccess: (sent) => {
        const mailed = t('reports.schedule.sent', 'The report was mailed to {{count, number}} recipients.', {
          count: sent.sentTo.length,
        });
        const waiting = t(
          'reports.schedule.sentWaiting',
          '{{count, number}} recipients have not confirmed their address yet and got nothing.',
          { count: sent.waiting.length },
        );
        showSuccess(sent.waiting.length > 0 ? `${mailed} ${waiting}` : mailed);
      },
      onError: (error) =>
        showMutationError(t, error, {
          title: t('reports.schedule.sendFailed', 'The report was not mailed'),
          explain: explainMailError(t),
        }),
    });

  const resendLink = (email: string) =>
    resend.mutate(email, {
      onSuccess: () =>
        showSuccess(t('reports.recipients.resent', 'A new link was mailed to {{email}}.', { email })),
      onError: (error) =>
        showMutationError(t, error, {
          title: t('reports.recipients.resendFailed', 'The link was not mailed'),
          explain: explainMailError(t),
        }),
    });

  const skipped = (s: ReportSchedule) =>
    s.lastErrorCode === 'report_mail_quota'
      ? t('reports.schedule.skippedQuota', "Skipped: the workspace's mail quota was used up.")
      : t('reports.schedule.skippedUnverified', 'Skipped: no recipient has confirmed their address yet.');

  const renderBody = () => {
    if (schedules.isPending) return <LoadingState />;
    if (!schedules.data)
      return <ErrorState error={schedules.error} onRetry={() => void schedules.refetch()} />;
    const mine = schedules.data.items.filter((s) => s.kind === kind);
    if (mine.length === 0) {
      return (
        <Text c="dimmed" size="sm">
          {t('reports.schedule.none', 'This report is not mailed yet.')}
        </Text>
      );
    }
    return (
      <Table.ScrollContainer minWidth={720}>
        <Table aria-label={t('reports.schedule.tableName', 'Weekly mailings of this report')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('reports.schedule.columns.when', 'When')}</Table.Th>
              <Table.Th scope="col">{t('reports.schedule.columns.recipients', 'Recipients')}</Table.Th>
              <Table.Th scope="col">{t('reports.schedule.columns.next', 'Next mailing')}</Table.Th>
              <Table.Th scope="col">{t('reports.schedule.columns.last', 'Last mailing')}</Table.Th>
              <Table.Th scope="col">{t('reports.schedule.columns.actions', 'Actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {mine.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Th scope="row" fw={400}>
                  <Stack gap={2}>
                    <span>{when(s)}</span>
                    <Group gap={4}>
                      <Badge size="xs" variant="light">
                        {s.language === 'de' ? 'Deutsch' : 'English'}
                      </Badge>
                      {s.enabled ? null : (
                        <Badge size="xs" color="gray">
                          {t('reports.schedule.paused', 'Paused')}
                        </Badge>
                      )}
                    </Group>
                  </Stack>
                </Table.Th>
                <Table.Td>
                  <RecipientList
                    recipients={s.recipientStates}
                    canResend={canEdit}
                    onResend={resendLink}
                    resending={resend.isPending ? resend.variables : null}
                  />
                </Table.Td>
                <Table.Td>{s.nextRunAt ? format.dateTime(s.nextRunAt) : '–'}</Table.Td>
                <Table.Td>
                  {s.lastRunAt ? format.dateTime(s.lastRunAt) : t('reports.schedule.never', 'Never')}
                  {s.lastErrorCode ? (
                    <Text size="xs" c="orange">
                      {skipped(s)}
                    </Text>
                  ) : s.lastError ? (
                    <Text size="xs" c="red">
                      {t('reports.schedule.lastError', 'Failed: {{error}}', { error: s.lastError })}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  {canEdit ? (
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="light"
                        loading={send.isPending && send.variables === s.id}
                        onClick={() => sendNow(s)}
                        aria-label={t('reports.schedule.sendNowOf', 'Send now: {{when}}', { when: when(s) })}
                      >
                        {t('reports.schedule.sendNow', 'Send now')}
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => setEditing({ schedule: s })}
                        aria-label={t('reports.schedule.editOf', 'Edit: {{when}}', { when: when(s) })}
                      >
                        {t('reports.schedule.edit', 'Edit')}
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setDeleting(s)}
                        aria-label={t('reports.schedule.deleteOf', 'Delete: {{when}}', { when: when(s) })}
                      >
                        {t('reports.schedule.delete', 'Delete')}
                      </Button>
                    </Group>
                  ) : (
                    '–'
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  };

  return (
    <ReportCard title={t('reports.schedule.title', 'Weekly mailing')}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Text size="sm" c="dimmed">
            {t(
              'reports.schedule.description',
              'Mail this report as a PDF every week to chosen addresses. A mailed brief or analytics report covers the 7 days before the mailing.',
            )}
          </Text>
          {canEdit ? (
            <Button size="sm" onClick={() => setEditing({})}>
              {t('reports.schedule.add', 'Schedule weekly mailing')}
            </Button>
          ) : null}
        </Group>
        {renderBody()}
      </Stack>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={
          editing?.schedule
            ? t('reports.schedule.editTitle', 'Edit weekly mailing')
            : t('reports.schedule.addTitle', 'Schedule weekly mailing')
        }
        size="lg"
      >
        {editing ? (
          <ScheduleForm
            kind={kind}
            schedule={editing.schedule}
            onCancel={() => setEditing(null)}
            onSubmit={(body) =>
              save.mutateAsync({ id: editing.schedule?.id, body }).then((saved) => {
                setEditing(null);
                const isWaiting = saved.recipientStates.some(
                  (r) => r.state === 'pending' || r.state === 'expired',
                );
                showSuccess(
                  isWaiting
                    ? t(
                        'reports.schedule.savedLinks',
                        'The weekly mailing was saved. Addresses outside the workspace receive the report once they confirm the link mailed to them.',
                      )
                    : t('reports.schedule.saved', 'The weekly mailing was saved.'),
                );
              })
            }
          />
        ) : null}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        title={t('reports.schedule.deleteTitle', 'Delete weekly mailing')}
        message={t('reports.schedule.deleteMessage', 'Stop mailing this report {{when}}?', {
          when: deleting ? when(deleting) : '',
        })}
        confirmLabel={t('reports.schedule.delete', 'Delete')}
        isDestructive
        isBusy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              showSuccess(t('reports.schedule.deleted', 'The weekly mailing was deleted.'));
            },
            onError: (error) => showMutationError(t, error),
          })
        }
      />
    </ReportCard>
  );
}
