import { useTranslation } from 'react-i18next';
import { formatDateFields, formatDateTime } from '../../lib/format-time';
import { currentLocale, toLocale } from '../../lib/i18n';

/** The language the dashboards format numbers and times in; re-renders when it changes. */
export function useChartLocale(): string {
  const { i18n } = useTranslation();
  return toLocale(i18n.resolvedLanguage ?? i18n.language) ?? currentLocale();
}

/** A count with the language's digits and thousands grouping: 1,234,567 in English, 1.234.567 in German. */
export function formatCount(n: number, locale: string): string {
  return new Intl.NumberFormat(locale, { useGrouping: true, maximumFractionDigits: 0 }).format(n);
}

const LARGE_UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/**
 * A byte count readably, in decimal units as Intl writes them in the language: "512 bytes", "1.5 MB",
 * "1,5 GB". Under 1000 the exact count is written in words; from 1000 on the largest fitting unit, three
 * significant digits.
 */
export function formatBytes(bytes: number, locale: string): string {
  const value = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  if (value < 1000) {
    return new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(value);
  }
  let scaled = value / 1000;
  let index = 0;
  while (scaled >= 1000 && index < LARGE_UNITS.length - 1) {
    scaled /= 1000;
    index += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: LARGE_UNITS[index],
    unitDisplay: 'short',
    maximumSignificantDigits: 3,
  }).format(scaled);
}

/**
 * How the start of a series bucket is written: the time alone for a range within a day, the day and time for
 * longer ones.
 */
export function bucketTimeFormatter(locale: string, spansDays: boolean): (at: number | string) => string {
  const fields: Intl.DateTimeFormatOptions = spansDays
    ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }
    : { hour: '2-digit', minute: '2-digit' };
  return (at) => formatDateFields(at, locale, fields);
}

/** A date and time in the language's medium format (the range a drill-down covers, an event's time). */
export function dateTimeFormatter(locale: string): (at: number | string) => string {
  return (at) => formatDateTime(at, locale, { timeStyle: 'medium' });
}
