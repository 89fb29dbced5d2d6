import { Checkbox, Group as Row, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { formatWeekday } from '../../../lib/format-time';
import type { PolicyFormValues } from '../utils/policy-form';

/** Monday first; values are the contract's day numbers (0 = Sunday). */
const WEEK = [1, 2, 3, 4, 5, 6, 0];
const DEFAULT_SCHEDULE = { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' };

/** Props of {@link RuleScheduleFields}. */
export interface RuleScheduleFieldsProps {
  form: UseFormReturnType<PolicyFormValues>;
  index: number;
  isReadOnly: boolean;
}

/** "Only at certain times": the switch, and when on, the week days and the time window of the rule. */
export function RuleScheduleFields({ form, index, isReadOnly }: RuleScheduleFieldsProps) {
  const { t, i18n } = useTranslation();
  const rule = form.getValues().rules[index];
  const path = (field: string) => `rules.${index}.${field}`;
  const locale = i18n.resolvedLanguage ?? i18n.language;
  return (
    <>
      <Checkbox
        label={t('policies.rules.scheduled', 'Only at certain times')}
        checked={rule.schedule !== null}
        disabled={isReadOnly}
        onChange={(event) =>
          form.setFieldValue(path('schedule'), event.currentTarget.checked ? { ...DEFAULT_SCHEDULE } : null)
        }
      />
      {rule.schedule ? (
        <Stack gap="xs" pl="md">
          <Checkbox.Group
            label={t('policies.rules.days', 'Days')}
            value={rule.schedule.days.map(String)}
            onChange={(days) => form.setFieldValue(path('schedule.days'), days.map(Number))}
            error={form.errors[path('schedule.days')] ?? form.errors[path('schedule')]}
            readOnly={isReadOnly}
          >
            <Row gap="sm" mt={4}>
              {WEEK.map((day) => (
                <Checkbox key={day} value={String(day)} label={formatWeekday(day, locale, 'short')} />
              ))}
            </Row>
          </Checkbox.Group>
          <Row gap="sm" align="flex-start">
            <TextInput
              type="time"
              label={t('policies.rules.from', 'From')}
              readOnly={isReadOnly}
              {...form.getInputProps(path('schedule.from'))}
            />
            <TextInput
              type="time"
              label={t('policies.rules.to', 'To')}
              description={t('policies.rules.timeHint', 'UTC; a window may cross midnight.')}
              readOnly={isReadOnly}
              {...form.getInputProps(path('schedule.to'))}
            />
          </Row>
        </Stack>
      ) : null}
    </>
  );
}
