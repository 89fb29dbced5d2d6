import { Group, Loader, Progress, Stack, Text } from '@mantine/core';
import type { UserBulkJob } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** The progress of a bulk change or delete over a whole search: a bar with "processed of matched". */
export function BulkProgress({
  job,
  isPollFailing = false,
}: {
  job: UserBulkJob | null;
  isPollFailing?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language);
  if (!job) {
    return (
      <Group gap="xs" role="status" aria-live="polite">
        <Loader size="xs" aria-hidden />
        <Text size="sm">{t('users.bulkJob.starting', 'Starting…')}</Text>
      </Group>
    );
  }
  const percent = job.matched === 0 ? 100 : Math.min(100, Math.round((job.processed / job.matched) * 100));
  return (
    <Stack gap={4} miw={260}>
      <Progress
        value={percent}
        size="lg"
        animated
        aria-label={
          job.action === 'delete'
            ? t('users.bulkJob.deleteLabel', 'Delete progress')
            : t('users.bulkJob.changeLabel', 'Bulk change progress')
        }
      />
      <Text size="sm" role="status" aria-live="polite">
        {t('users.bulkJob.progress', '{{processed}} of {{matched}} users processed', {
          processed: format.format(job.processed),
          matched: format.format(job.matched),
        })}
      </Text>
      {isPollFailing ? (
        <Text size="sm" c="red">
          {t('users.bulkJob.pollFailed', 'The progress could not be loaded; trying again.')}
        </Text>
      ) : null}
    </Stack>
  );
}
