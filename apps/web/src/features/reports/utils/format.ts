import { useTranslation } from 'react-i18next';
import { formatters } from '../../../lib/format-time';

/** The Intl locale of the console's language (spec §9: English groups thousands with commas). */
export function localeOf(language: string): string {
  return language.startsWith('de') ? 'de-DE' : 'en-US';
}

/** Formatters of the reports in the console's language: counts, data, percentages, times and durations. */
export function useReportFormat() {
  const { t, i18n } = useTranslation();
  const locale = localeOf(i18n.language ?? 'en');
  const number = new Intl.NumberFormat(locale);
  const time = formatters(locale);
  return {
    locale,
    count: (value: number) => number.format(value),
    bytes(value: number) {
      if (value < 1000) return t('reports.units.bytes', '{{value}} B', { value: number.format(value) });
      const units = ['kB', 'MB', 'GB', 'TB', 'PB'];
      let scaled = value / 1000;
      let index = 0;
      while (scaled >= 1000 && index < units.length - 1) {
        scaled /= 1000;
        index += 1;
      }
      return `${new Intl.NumberFormat(locale, { maximumSignificantDigits: 3 }).format(scaled)} ${units[index]}`;
    },
    /** A change in percent with its sign (`+12.5 %`), or a dash when there was nothing to compare with. */
    percent(value: number | null) {
      if (value === null) return '–';
      const text = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(Math.abs(value));
      return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${text} %`;
    },
    dateTime: (iso: string) => time.dateTime(iso),
    period: (from: string, to: string) => `${time.dateTime(from)} – ${time.dateTime(to)}`,
    duration: (ms: number) => time.duration(ms),
    /** Chart labels of a moment or a calendar day with the fields given (see formatDateFields). */
    dateFields: time.dateFields,
  };
}
export type ReportFormat = ReturnType<typeof useReportFormat>;
