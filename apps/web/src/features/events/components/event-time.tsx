import { Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "3 minutes ago", "yesterday"… in the given language: the largest unit that fits. */
export function relativeTime(at: Date, now: Date, locale: string): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const diff = at.getTime() - now.getTime();
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'second') return format.format(Math.round(diff / ms), unit);
  }
  return format.format(0, 'second');
}

/** A time as relative text, with the full date and time in a tooltip and in a `<time>` element. */
export function EventTime({ at }: { at: string }) {
  const { i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const date = new Date(at);
  const absolute = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
  return (
    <Tooltip label={absolute} withArrow>
      <Text component="time" dateTime={at} size="sm" title={absolute} tabIndex={0}>
        {relativeTime(date, new Date(), locale)}
      </Text>
    </Tooltip>
  );
}
