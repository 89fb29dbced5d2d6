import { Button, Group, Select, Stack, Switch, TagsInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import {
  MAX_REPORT_RECIPIENTS,
  type ReportKind,
  type ReportSchedule,
  ReportScheduleInput,
} from '@palisade/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError } from '../../../lib/mutation-toast';
import { localeOf } from '../utils/format';
import { explainMailError } from '../utils/mail-errors';
import {
  hourLabel,
  type ScheduleFormValues,
  scheduleFormToInput,
  scheduleToFormValues,
  timeZones,
  WEEKDAYS,
  weekdayName,
} from '../utils/schedule-values';

/** Props of {@link ScheduleForm}. */
export interface ScheduleFormProps {
  kind: ReportKind;
  /** The schedule edited; a new one when absent. */
  schedule?: ReportSchedule;
  /** Sends the input; a rejection with 400 details puts them on the fields. */
  onSubmit: (input: ReportScheduleInput) => Promise<unknown>;
  onCancel: () => void;
}

/** Problems of single recipients (`recipients.2`) show on the recipients field. */
function foldRecipients(errors: FormErrors): FormErrors {
  const folded: FormErrors = {};
  for (const [field, message] of Object.entries(errors)) {
    const key = field.startsWith('recipients.') ? 'recipients' : field;
    if (folded[key] === undefined) folded[key] = message;
  }
  return folded;
}

/**
 * When a report is mailed (weekday, hour and time zone), to whom (up to 20 addresses), in which language, and
 * whether the mailing is on. Checked with the contract's `ReportScheduleInput`; the server's details show on
 * the same fields.
 */
export function ScheduleForm({ kind, schedule, onSubmit, onCancel }: ScheduleFormProps) {
  const { t, i18n } = useTranslation();
  const locale = localeOf(i18n.language ?? 'en');
  const toInput = scheduleFormToInput(kind);
  const validate = zodValidator<ScheduleFormValues, ReportScheduleInput>(ReportScheduleInput, t, toInput);
  const form = useForm<ScheduleFormValues>({
    mode: 'controlled',
    initialValues: scheduleToFormValues(schedule, i18n.language ?? 'en'),
    validate: (values) => foldRecipients(validate(values)),
  });
  const zones = useMemo(() => {
    const all = timeZones();
    return all.includes(form.values.timezone) ? all : [form.values.timezone, ...all];
  }, [form.values.timezone]);

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      await onSubmit(toInput(values));
    } catch (error) {
      const errors = foldRecipients(serverFieldErrors(error, t));
      if (Object.keys(errors).length === 0) showMutationError(t, error, { explain: explainMailError(t) });
      else form.setErrors(errors);
    }
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={t('reports.schedule.formName', 'Weekly mailing')}>
      <Stack gap="md">
        <Group grow align="flex-start">
          <Select
            label={t('reports.schedule.weekday', 'Weekday')}
            data={WEEKDAYS.map((day) => ({ value: String(day), label: weekdayName(day, locale) }))}
            allowDeselect={false}
            required
            {...form.getInputProps('weekday')}
          />
          <Select
            label={t('reports.schedule.hour', 'Time')}
            data={Array.from({ length: 24 }, (_, hour) => ({ value: String(hour), label: hourLabel(hour) }))}
            allowDeselect={false}
            required
            {...form.getInputProps('hour')}
          />
        </Group>
        <Select
          label={t('reports.schedule.timezone', 'Time zone')}
          description={t('reports.schedule.timezoneHint', 'The weekday and time are in this time zone.')}
          data={zones}
          searchable
          allowDeselect={false}
          required
          limit={100}
          {...form.getInputProps('timezone')}
        />
        <TagsInput
          label={t('reports.schedule.recipients', 'Recipients')}
          description={`${t(
            'reports.schedule.recipientsHint',
            'E-mail addresses, at most {{max}}. Press Enter or type a comma after each.',
            { max: MAX_REPORT_RECIPIENTS },
          )} ${t(
            'reports.schedule.recipientsVerifyHint',
            'Administrators of this workspace receive the report at once; any other address is first mailed a link to confirm, and receives nothing until it does.',
          )}`}
          placeholder={t('reports.schedule.recipientsPlaceholder', 'security@example.com')}
          splitChars={[',', ' ', ';']}
          maxTags={MAX_REPORT_RECIPIENTS}
          clearable
          required
          {...form.getInputProps('recipients')}
        />
        <Select
          label={t('reports.schedule.language', 'Language of the report')}
          data={[
            { value: 'en', label: 'English' },
            { value: 'de', label: 'Deutsch' },
          ]}
          allowDeselect={false}
          {...form.getInputProps('language')}
        />
        <Switch
          label={t('reports.schedule.enabled', 'Mailing on')}
          description={t(
            'reports.schedule.enabledHint',
            'A mailing that is off keeps its settings but sends nothing.',
          )}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel', 'Cancel')}
          </Button>
          <Button type="submit" loading={form.submitting}>
            {schedule ? t('reports.schedule.save', 'Save') : t('reports.schedule.create', 'Schedule')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
