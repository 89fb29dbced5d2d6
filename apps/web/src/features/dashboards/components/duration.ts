import { type DurationUnit, formatDurationText } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** Renders a duration in days, hours, minutes and seconds (spec §9) with the language's unit names. */
export function useFormatDuration(): (ms: number) => string {
  const { t } = useTranslation();
  const units: Record<DurationUnit, (count: number) => string> = {
    days: (count) => t('dashboards.duration.days', '{{count, number}}d', { count }),
    hours: (count) => t('dashboards.duration.hours', '{{count, number}}h', { count }),
    minutes: (count) => t('dashboards.duration.minutes', '{{count, number}}m', { count }),
    seconds: (count) => t('dashboards.duration.seconds', '{{count, number}}s', { count }),
  };
  return (ms) => formatDurationText(ms, (unit, value) => units[unit](value));
}
