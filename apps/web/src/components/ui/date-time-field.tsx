import '@mantine/dates/styles.css';
import 'dayjs/locale/de';
import { DatesProvider, DateTimePicker, type DateTimePickerProps } from '@mantine/dates';
import type { Locale } from '@palisade/contracts';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { useTranslation } from 'react-i18next';
import { toLocale } from '../../lib/i18n';

// "lll" is the language's own medium date and time: "Mar 1, 2026 9:30 AM", "1. März 2026 09:30".
dayjs.extend(localizedFormat);

/** Monday starts the week in German; Sunday in (US) English, as `Intl` has it for `en`. */
const FIRST_DAY_OF_WEEK: Record<Locale, 0 | 1> = { en: 0, de: 1 };
/** The clock each language reads, as its "lll" format shows it. */
const TIME_FORMAT: Record<Locale, '12h' | '24h'> = { en: '12h', de: '24h' };

/** Props of {@link DateTimeField}: Mantine's DateTimePicker with the value as a `datetime-local` string. */
export interface DateTimeFieldProps
  extends Omit<DateTimePickerProps, 'value' | 'defaultValue' | 'onChange' | 'type'> {
  /** Local date and time as `2026-03-01T09:30` (what `<input type="datetime-local">` holds); empty for none. */
  value: string;
  onChange: (value: string) => void;
}

/** `2026-03-01T09:30` as the picker's `2026-03-01 09:30:00`; null when empty or not a local date-time. */
export function toPickerValue(value: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(value);
  return match ? `${match[1]} ${match[2]}:00` : null;
}

/** The picker's `2026-03-01 09:30:00` as `2026-03-01T09:30`; empty when cleared. */
export function fromPickerValue(value: string | null): string {
  return value ? `${value.slice(0, 10)}T${value.slice(11, 16)}` : '';
}

/**
 * A date and time field in the app's language, whatever the browser's: month and day names, the first day of
 * the week, the shown format and every control's name follow i18n (a native `datetime-local` input follows the
 * browser instead). Its value is a `datetime-local` string, so it replaces such an input one for one.
 */
export function DateTimeField({ value, onChange, ...props }: DateTimeFieldProps) {
  const { t, i18n } = useTranslation();
  const locale = toLocale(i18n.resolvedLanguage ?? i18n.language) ?? 'en';
  return (
    <DatesProvider settings={{ locale, firstDayOfWeek: FIRST_DAY_OF_WEEK[locale] }}>
      <DateTimePicker
        valueFormat="lll"
        clearable
        value={toPickerValue(value)}
        onChange={(next) => onChange(fromPickerValue(next))}
        ariaLabels={{
          monthLevelControl: t('common.dateTime.chooseMonth', 'Choose a month'),
          yearLevelControl: t('common.dateTime.chooseYear', 'Choose a year'),
          nextMonth: t('common.dateTime.nextMonth', 'Next month'),
          previousMonth: t('common.dateTime.previousMonth', 'Previous month'),
          nextYear: t('common.dateTime.nextYear', 'Next year'),
          previousYear: t('common.dateTime.previousYear', 'Previous year'),
          nextDecade: t('common.dateTime.nextDecade', 'Next decade'),
          previousDecade: t('common.dateTime.previousDecade', 'Previous decade'),
        }}
        timePickerProps={{
          'aria-label': t('common.dateTime.time', 'Time'),
          format: TIME_FORMAT[locale],
          hoursInputLabel: t('common.dateTime.hours', 'Hours'),
          minutesInputLabel: t('common.dateTime.minutes', 'Minutes'),
          amPmInputLabel: t('common.dateTime.amPm', 'AM or PM'),
        }}
        submitButtonProps={{ 'aria-label': t('common.dateTime.apply', 'Apply') }}
        clearButtonProps={{ 'aria-label': t('common.dateTime.clear', 'Clear') }}
        {...props}
      />
    </DatesProvider>
  );
}
