import { Button, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  ADD_ONS,
  EVENT_RETENTION_DAYS,
  EVENT_RETENTION_LIMITS,
  EventRetentionInput,
} from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useEventRetention } from '../api/get-event-retention';
import { useUpdateEventRetention } from '../api/update-event-retention';

/**
 * Why the tenant keeps events for at most `maxDays` (contracts EVENT_RETENTION_LIMITS): its plan without the
 * Extended log retention add-on, or with it; null for a tenant without a subscription (only the range applies).
 */
function limitReason(t: TFunction, maxDays: number): string | null {
  const addOn = t('subscriptions.addOns.extendedRetention', ADD_ONS.extendedRetention.name);
  if (maxDays === EVENT_RETENTION_LIMITS.plan) {
    return t(
      'events.retention.limitPlan',
      'Your plan keeps events for up to {{max, number}} days; the {{addOn}} add-on keeps them for up to {{extended, number}} days.',
      { max: maxDays, addOn, extended: EVENT_RETENTION_LIMITS.extendedRetention },
    );
  }
  if (maxDays === EVENT_RETENTION_LIMITS.extendedRetention) {
    return t(
      'events.retention.limitExtended',
      'Your subscription includes the {{addOn}} add-on: events are kept for up to {{max, number}} days.',
      { max: maxDays, addOn },
    );
  }
  return null;
}

type Values = { days: number | string };

/**
 * How long the tenant keeps admin events, editable by holders of tenant:update, up to what its subscription allows
 * (`maxDays`, said with its reason).
 */
export function RetentionPanel({ tenant }: { tenant: string }) {
  const { t } = useTranslation();
  const retentionQuery = useEventRetention(tenant);
  const maxDays = retentionQuery.data?.maxDays ?? EVENT_RETENTION_DAYS.max;
  const inRange = zodValidator(EventRetentionInput, t, (values: Values) => ({ days: Number(values.days) }));
  const form = useForm<Values>({
    initialValues: { days: EVENT_RETENTION_DAYS.default },
    validate: (values) => {
      const errors = inRange(values);
      // The server's own check, in its words: no more than the subscription keeps.
      if (!errors.days && Number(values.days) > maxDays) {
        errors.days = t(
          'validation.retentionAboveMaximum',
          'Your subscription keeps events for at most {{max}} days.',
          { max: String(maxDays) },
        );
      }
      return errors;
    },
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
    const reason = limitReason(t, maxDays);
    return (
      <form onSubmit={form.onSubmit((values) => mutation.mutate({ days: Number(values.days) }))} noValidate>
        {reason ? (
          <Text size="sm" mb="xs">
            {reason}
          </Text>
        ) : null}
        <Group align="flex-end" gap="sm">
          <NumberInput
            label={t('events.retention.days', 'Keep events for (days)')}
            description={t('events.retention.range', 'Between {{min, number}} and {{max, number}} days.', {
              min: EVENT_RETENTION_DAYS.min,
              max: maxDays,
            })}
            min={EVENT_RETENTION_DAYS.min}
            max={maxDays}
            // Not clamped: more than the subscription keeps is said, in the words the server would use.
            clampBehavior="none"
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
