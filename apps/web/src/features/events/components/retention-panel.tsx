import { Button, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { EVENT_RETENTION_DAYS, EventRetention } from '@palisade/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useEventRetention } from '../api/get-event-retention';
import { useUpdateEventRetention } from '../api/update-event-retention';

/** How long the tenant keeps admin events, editable by holders of tenant:update. */
export function RetentionPanel({ tenant }: { tenant: string }) {
  const { t } = useTranslation();
  const retentionQuery = useEventRetention(tenant);
  const form = useForm<{ days: number | string }>({
    initialValues: { days: EVENT_RETENTION_DAYS.default },
    validate: zodValidator(EventRetention, t, (values) => ({ days: Number(values.days) })),
  });
  const saved = retentionQuery.data?.days;
  // Follows the stored value when it loads or changes (another administrator, a tenant switch).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form object is stable for its lifetime
  useEffect(() => {
    if (saved !== undefined) form.setInitialValues({ days: saved });
    if (saved !== undefined) form.setValues({ days: saved });
  }, [saved]);

  const mutation = useUpdateEventRetention(tenant, {
    onSuccess: ({ days }) =>
      showSuccess(t('events.retention.saved', 'Events are now kept for {{days}} days.', { days })),
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, t);
      if (Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
      else showMutationError(t, error);
    },
  });

  const renderBody = () => {
    if (retentionQuery.isPending) return <LoadingState />;
    if (retentionQuery.isError) {
      return <ErrorState error={retentionQuery.error} onRetry={() => void retentionQuery.refetch()} />;
    }
    return (
      <form onSubmit={form.onSubmit((values) => mutation.mutate({ days: Number(values.days) }))} noValidate>
        <Group align="flex-end" gap="sm">
          <NumberInput
            label={t('events.retention.days', 'Keep events for (days)')}
            description={t('events.retention.range', 'Between {{min}} and {{max}} days.', {
              min: EVENT_RETENTION_DAYS.min,
              max: EVENT_RETENTION_DAYS.max,
            })}
            min={EVENT_RETENTION_DAYS.min}
            max={EVENT_RETENTION_DAYS.max}
            allowDecimal={false}
            allowNegative={false}
            w={220}
            {...form.getInputProps('days')}
          />
          <Button type="submit" loading={mutation.isPending} disabled={!form.isDirty()}>
            {t('common.save', 'Save')}
          </Button>
        </Group>
      </form>
    );
  };

  return (
    <Paper withBorder p="md" radius="sm" component="section" aria-labelledby="event-retention-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="event-retention-title">
          {t('events.retention.title', 'Retention')}
        </Title>
        <Text size="sm" c="dimmed">
          {t(
            'events.retention.help',
            'Older events are deleted automatically every hour. Changing this is itself recorded in the log.',
          )}
        </Text>
        {renderBody()}
      </Stack>
    </Paper>
  );
}
