import type { SitePerformanceRange } from '@palisade/contracts';
import { formatDateFields, formatDateTime, formatDuration } from '../../../lib/format-time';

/** A round trip in milliseconds: "24 ms", "3.5 ms" (one decimal under 10 ms). */
export function formatLatency(ms: number, locale: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: 'millisecond',
    unitDisplay: 'short',
    maximumFractionDigits: Math.abs(ms) < 10 ? 1 : 0,
  }).format(ms);
}

/** A share given in percent (0–100): "99.8%" in English, "99,8 %" in German. */
export function formatPercent(percent: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(percent / 100);
}

/** The width of one point: "1 minute", "15 minutes", "2 hours". */
export function formatBucket(bucketMs: number, locale: string): string {
  return formatDuration(bucketMs, locale, { style: 'long', smallestUnit: 'minutes' });
}

/** Time-axis ticks: the time of day within a day, the weekday and time over a week. */
const TICK_FORMATS: Record<SitePerformanceRange, Intl.DateTimeFormatOptions> = {
  '1h': { hour: '2-digit', minute: '2-digit' },
  '24h': { hour: '2-digit', minute: '2-digit' },
  '7d': { weekday: 'short', hour: '2-digit', minute: '2-digit' },
};

/** Formats a time-axis tick of `range` in `locale` (the user's time zone). */
export function tickFormatter(range: SitePerformanceRange, locale: string): (at: number) => string {
  return (at) => formatDateFields(at, locale, TICK_FORMATS[range]);
}

/** A point's time in full, for the tooltip and the data table: "3 Mar 2026, 10:15". */
export function pointTimeFormatter(locale: string): (at: number | string) => string {
  return (at) => formatDateTime(at, locale);
}
