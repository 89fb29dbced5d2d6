/**
 * Dates, times, relative times and durations (spec §9), in the reader's language (en, de) and the browser's time
 * zone — the console has no time-zone setting of its own; a calendar day (a billing date, a report's day) passes
 * `timeZone: 'UTC'`. The one place in the web app that builds `Intl.DateTimeFormat`, `Intl.RelativeTimeFormat`
 * and the unit formats of durations (format-time.guard.test.ts keeps it so); each is built once per language and
 * options, since building one costs far more than formatting with it.
 *
 * Screens take them from {@link useFormatters}, which follows a change of language; plain code (table column
 * builders, value renderers) calls the functions with a locale, by default the active one.
 */
import {
  DEFAULT_LOCALE,
  type DurationUnit,
  formatDuration as durationParts,
  type Locale,
  relativeTime,
} from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { currentLocale, toLocale } from './i18n';

/** What is shown for a missing or unreadable time. */
export const NO_TIME = '—';

/** A moment as the API gives it (ISO text), as milliseconds since the epoch or as a Date; absent as null. */
export type TimeInput = string | number | Date | null | undefined;

/** `value` as milliseconds since the epoch, or null when it is absent, empty or not a time. */
export function toTimestamp(value: TimeInput): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms =
    typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : value.getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** A language tag as the formatters take it: `de-AT` writes as `de`; anything unsupported as English. */
export function formatLocale(locale?: string | null): Locale {
  return locale ? (toLocale(locale) ?? DEFAULT_LOCALE) : currentLocale();
}

// ---------------------------------------------------------------------------------------------------------------
// The Intl objects, one per language and options.

const cache = new Map<string, unknown>();

function cached<T>(kind: string, locale: string, options: object, build: () => T): T {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let value = cache.get(key) as T | undefined;
  if (value === undefined) {
    value = build();
    cache.set(key, value);
  }
  return value;
}

/** The `Intl.DateTimeFormat` of `locale` and `options`, built once. */
export function dateTimeFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions = {},
): Intl.DateTimeFormat {
  return cached('date', locale, options, () => new Intl.DateTimeFormat(locale, options));
}

function relativeTimeFormat(locale: string): Intl.RelativeTimeFormat {
  const options: Intl.RelativeTimeFormatOptions = { numeric: 'always' };
  return cached('relative', locale, options, () => new Intl.RelativeTimeFormat(locale, options));
}

function unitFormat(
  locale: string,
  unit: string,
  unitDisplay: 'narrow' | 'short' | 'long',
): Intl.NumberFormat {
  const options: Intl.NumberFormatOptions = { style: 'unit', unit, unitDisplay };
  return cached('unit', locale, options, () => new Intl.NumberFormat(locale, options));
}

function unitListFormat(locale: string): Intl.ListFormat {
  const options: Intl.ListFormatOptions = { type: 'unit', style: 'short' };
  return cached('list', locale, options, () => new Intl.ListFormat(locale, options));
}

/** The browser's time zone (what every time is shown in), else UTC. */
export function userTimeZone(): string {
  try {
    return dateTimeFormat('en').resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Absolute dates and times.

type Style = 'short' | 'medium' | 'long' | 'full';

/** Options of the absolute formats; `timeZone` overrides the browser's (`'UTC'` for a calendar day). */
export interface DateOptions {
  timeZone?: string;
}

function format(value: TimeInput, locale: string | undefined, options: Intl.DateTimeFormatOptions): string {
  const at = toTimestamp(value);
  return at === null ? NO_TIME : dateTimeFormat(formatLocale(locale), options).format(at);
}

/** A day: "Mar 5, 2026" / "05.03.2026" (`style` medium), "March 5, 2026" / "5. März 2026" (long). */
export function formatDate(
  value: TimeInput,
  locale?: string,
  { style = 'medium', timeZone }: DateOptions & { style?: Style } = {},
): string {
  return format(value, locale, { dateStyle: style, timeZone });
}

/** A moment: "Mar 5, 2026, 2:05 PM" / "05.03.2026, 14:05"; `timeStyle: 'medium'` adds the seconds. */
export function formatDateTime(
  value: TimeInput,
  locale?: string,
  {
    dateStyle = 'medium',
    timeStyle = 'short',
    timeZone,
  }: DateOptions & { dateStyle?: Style; timeStyle?: Style } = {},
): string {
  return format(value, locale, { dateStyle, timeStyle, timeZone });
}

/** A time of day: "2:05 PM" / "14:05"; with `seconds`, "2:05:09 PM" / "14:05:09". */
export function formatTime(
  value: TimeInput,
  locale?: string,
  { seconds = false, timeZone }: DateOptions & { seconds?: boolean } = {},
): string {
  return format(value, locale, { timeStyle: seconds ? 'medium' : 'short', timeZone });
}

/**
 * A moment with the fields `options` names, for what the styles do not cover: chart ticks
 * (`{ hour: '2-digit', minute: '2-digit' }`), a weekday with its day (`{ weekday: 'short', day: '2-digit' }`).
 */
export function formatDateFields(
  value: TimeInput,
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
) {
  return format(value, locale, options);
}

/** A weekday by number (0 Sunday … 6 Saturday): "Monday" / "Montag", or "Mon" / "Mo." with `'short'`. */
export function formatWeekday(weekday: number, locale?: string, style: 'long' | 'short' = 'long'): string {
  // 7 January 2024 was a Sunday.
  return format(Date.UTC(2024, 0, 7 + weekday), locale, { weekday: style, timeZone: 'UTC' });
}

// ---------------------------------------------------------------------------------------------------------------
// Relative time.

/**
 * How far `value` is from `now`, in words: "5 minutes ago", "in 2 days" / "vor 5 Minuten", "in 2 Tagen". One
 * algorithm for the whole console, contracts' `relativeTime` (spec §9), values floored:
 *
 * | distance            | unit                      |
 * |---------------------|---------------------------|
 * | under 60 s          | seconds ("0 seconds ago") |
 * | under 60 min        | minutes                   |
 * | under 24 h          | hours                     |
 * | under 30 days       | days                      |
 * | under 365 days      | months of 30 days         |
 * | from 365 days on    | years of 365 days         |
 *
 * Numbers are always written out ("1 day ago", never "yesterday"), so a column of them reads alike. An absent
 * or unreadable value gives {@link NO_TIME}.
 */
export function formatRelativeTime(value: TimeInput, locale?: string, now: number = Date.now()): string {
  const at = toTimestamp(value);
  if (at === null) return NO_TIME;
  const { value: amount, unit, isFuture } = relativeTime(at, now);
  // -0 is what makes Intl choose the past form for a zero value.
  return relativeTimeFormat(formatLocale(locale)).format(isFuture ? amount : -amount, unit);
}

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const UNIT_MS = {
  second: SECOND_MS,
  minute: MINUTE_MS,
  hour: HOUR_MS,
  day: DAY_MS,
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
};
/** The longest a relative time waits before it is read again (timers of weeks are not kept exactly anyway). */
const MAX_REFRESH_MS = HOUR_MS;

/**
 * In how many milliseconds {@link formatRelativeTime} of `value` next changes its text: when the distance reaches
 * the next whole unit (or the next unit) for a past time, or drops below the current one for a future time.
 * At least 50 ms and at most an hour; null for an absent value, which never changes.
 */
export function relativeTimeChangesIn(value: TimeInput, now: number = Date.now()): number | null {
  const at = toTimestamp(value);
  if (at === null) return null;
  const distance = Math.abs(at - now);
  const { unit, isFuture } = relativeTime(at, now);
  const size = UNIT_MS[unit];
  let wait: number;
  if (isFuture) {
    wait = (distance % size) + 1;
  } else {
    wait = size - (distance % size);
    // 12 months (360–364 days) become a year at 365 days, before a 13th month would be reached.
    if (unit === 'month') wait = Math.min(wait, UNIT_MS.year - distance);
  }
  return Math.min(Math.max(wait, 50), MAX_REFRESH_MS);
}

// ---------------------------------------------------------------------------------------------------------------
// Durations.

const DURATION_UNITS: readonly DurationUnit[] = ['days', 'hours', 'minutes', 'seconds'];
const INTL_UNIT: Record<DurationUnit, 'day' | 'hour' | 'minute' | 'second'> = {
  days: 'day',
  hours: 'hour',
  minutes: 'minute',
  seconds: 'second',
};
/**
 * The unit names of the short style: English narrow ("1d 2h 3m 4s", spec §9's compact form); German short
 * ("1 Tg. 2 Std. 3 Min. 4 Sek."), since German narrow mixes "1 T", "2h" and "3 Min.".
 */
const SHORT_DISPLAY: Record<Locale, 'narrow' | 'short'> = { en: 'narrow', de: 'short' };

/** Options of {@link formatDuration}. */
export interface DurationOptions {
  /**
   * `'short'` (default, spec §9): every unit from the largest non-zero one down to seconds, zeros kept so a
   * column lines up — "1h 0m 5s" / "1 Std. 0 Min. 5 Sek."; zero is "0s". `'long'`: unit names in full and zero
   * units left out — "3 days, 4 hours" / "2 Stunden, 5 Minuten"; zero is "0 seconds".
   */
  style?: 'short' | 'long';
  /** Long style: at most this many adjacent units from the largest non-zero one ("3 days, 4 hours" of 3d 4h 5m). */
  maxUnits?: number;
  /**
   * Long style: the smallest unit shown ("minutes": 2 min 30 s is "2 minutes"); a duration shorter than it is
   * written in the largest unit below it that is not zero ("40 seconds").
   */
  smallestUnit?: DurationUnit;
}

/**
 * A duration in days, hours, minutes and seconds (spec §9) with the language's unit names, from
 * `Intl.NumberFormat`'s units (Node 20 has no `Intl.DurationFormat`). Partial seconds are dropped; a negative or
 * unreadable duration counts as zero.
 */
export function formatDuration(ms: number, locale?: string, options: DurationOptions = {}): string {
  const lang = formatLocale(locale);
  const parts = durationParts(ms);
  const nonZero = (unit: DurationUnit) => parts[unit] !== 0;
  const write = (unit: DurationUnit, display: 'narrow' | 'short' | 'long') =>
    unitFormat(lang, INTL_UNIT[unit], display).format(parts[unit]);

  if (options.style !== 'long') {
    const first = DURATION_UNITS.findIndex(nonZero);
    const shown = first < 0 ? (['seconds'] as const) : DURATION_UNITS.slice(first);
    return shown.map((unit) => write(unit, SHORT_DISPLAY[lang])).join(' ');
  }

  const smallest = DURATION_UNITS.indexOf(options.smallestUnit ?? 'seconds');
  let first = DURATION_UNITS.slice(0, smallest + 1).findIndex(nonZero);
  let last = smallest;
  if (first < 0) {
    // Shorter than the smallest unit: its largest non-zero unit below, else zero seconds.
    const below = DURATION_UNITS.findIndex((unit, index) => index > smallest && nonZero(unit));
    first = below < 0 ? DURATION_UNITS.length - 1 : below;
    last = first;
  }
  const shown = DURATION_UNITS.slice(
    first,
    Math.min(last + 1, first + (options.maxUnits ?? DURATION_UNITS.length)),
  );
  const written = shown
    .filter((unit, index) => index === 0 || nonZero(unit))
    .map((unit) => write(unit, 'long'));
  return unitListFormat(lang).format(written);
}

// ---------------------------------------------------------------------------------------------------------------
// Bound to one language, for screens.

/** The formatters of one language (see the functions of the same names for what each writes). */
export interface Formatters {
  locale: Locale;
  date: (value: TimeInput, options?: DateOptions & { style?: Style }) => string;
  dateTime: (value: TimeInput, options?: DateOptions & { dateStyle?: Style; timeStyle?: Style }) => string;
  time: (value: TimeInput, options?: DateOptions & { seconds?: boolean }) => string;
  dateFields: (value: TimeInput, options: Intl.DateTimeFormatOptions) => string;
  weekday: (weekday: number, style?: 'long' | 'short') => string;
  relative: (value: TimeInput, now?: number) => string;
  duration: (ms: number, options?: DurationOptions) => string;
}

const bound = new Map<Locale, Formatters>();

/** The formatters of `locale` (by default the active language), the same object each time. */
export function formatters(locale?: string): Formatters {
  const lang = formatLocale(locale);
  let found = bound.get(lang);
  if (!found) {
    found = {
      locale: lang,
      date: (value, options) => formatDate(value, lang, options),
      dateTime: (value, options) => formatDateTime(value, lang, options),
      time: (value, options) => formatTime(value, lang, options),
      dateFields: (value, options) => formatDateFields(value, lang, options),
      weekday: (weekday, style) => formatWeekday(weekday, lang, style),
      relative: (value, now) => formatRelativeTime(value, lang, now),
      duration: (ms, options) => formatDuration(ms, lang, options),
    };
    bound.set(lang, found);
  }
  return found;
}

/** The formatters of the reader's language; the component re-renders when the language changes. */
export function useFormatters(): Formatters {
  const { i18n } = useTranslation();
  return formatters(toLocale(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LOCALE);
}
