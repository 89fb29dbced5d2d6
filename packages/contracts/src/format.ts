/**
 * Formatting rules of spec §9: durations, relative time, thousands grouping, rounding and table column widths.
 * Pure functions, so the server (reports, exports) and the web console render numbers identically.
 */

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A duration split into whole days, hours (0..23), minutes (0..59) and seconds (0..59). */
export interface DurationParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** The units of {@link DurationParts}, largest first. */
export type DurationUnit = keyof DurationParts;

const DURATION_UNITS: readonly DurationUnit[] = ['days', 'hours', 'minutes', 'seconds'];
const DURATION_SUFFIX: Record<DurationUnit, string> = { days: 'd', hours: 'h', minutes: 'm', seconds: 's' };

/**
 * Splits `ms` into days, hours, minutes and seconds (spec §9). Partial seconds are dropped (floored), and a
 * negative or non-finite input gives all zeros, because a duration shown to an admin is never negative.
 *
 * @example formatDuration(93_784_000) // { days: 1, hours: 2, minutes: 3, seconds: 4 }
 */
export function formatDuration(ms: number): DurationParts {
  const total = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / SECOND_MS) : 0;
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor(total / 3600) % 24,
    minutes: Math.floor(total / 60) % 60,
    seconds: total % 60,
  };
}

/**
 * Renders `ms` as `"1d 2h 3m 4s"`: zero units before the first non-zero one are dropped, later zero units are
 * kept so the columns stay aligned (`"1h 0m 5s"`); zero renders as `"0s"`. `t` renders one unit (for
 * translated suffixes, e.g. `(unit, n) => i18n.t(\`duration.${unit}\`, { count: n })`); by default the
 * English one-letter suffixes d, h, m, s are used.
 */
export function formatDurationText(ms: number, t?: (unit: DurationUnit, value: number) => string): string {
  const parts = formatDuration(ms);
  const render = t ?? ((unit: DurationUnit, value: number) => `${value}${DURATION_SUFFIX[unit]}`);
  const first = DURATION_UNITS.findIndex((unit) => parts[unit] !== 0);
  const shown = first < 0 ? (['seconds'] as const) : DURATION_UNITS.slice(first);
  return shown.map((unit) => render(unit, parts[unit])).join(' ');
}

/** Units of {@link relativeTime}, smallest first; the names are those `Intl.RelativeTimeFormat` accepts. */
export type RelativeTimeUnit = 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year';

/** The size of a time difference in one unit; `value` is never negative, `isFuture` carries the direction. */
export interface RelativeTime {
  value: number;
  unit: RelativeTimeUnit;
  isFuture: boolean;
}

/**
 * The distance from `nowMs` to `fromMs` in the unit spec §9 prescribes, with values floored:
 * seconds under 60 s, minutes under 60 min, hours under 24 h, days under 30 days, months (30-day units)
 * under 365 days, then years (365-day units). So 364 days is 12 months and 365 days is 1 year.
 * `isFuture` is true only when `fromMs` is after `nowMs`; equal times give `{ value: 0, unit: 'second' }`.
 */
export function relativeTime(fromMs: number, nowMs: number): RelativeTime {
  const diff = fromMs - nowMs;
  const isFuture = diff > 0;
  const abs = Math.abs(diff);
  const at = (value: number, unit: RelativeTimeUnit): RelativeTime => ({ value, unit, isFuture });
  if (abs < MINUTE_MS) return at(Math.floor(abs / SECOND_MS), 'second');
  if (abs < HOUR_MS) return at(Math.floor(abs / MINUTE_MS), 'minute');
  if (abs < DAY_MS) return at(Math.floor(abs / HOUR_MS), 'hour');
  const days = Math.floor(abs / DAY_MS);
  if (days < 30) return at(days, 'day');
  if (days < 365) return at(Math.floor(days / 30), 'month');
  return at(Math.floor(days / 365), 'year');
}

/**
 * {@link relativeTime} rendered by `Intl.RelativeTimeFormat` in `locale` with `numeric: 'always'`, so one day
 * ago is "1 day ago" rather than "yesterday" (e.g. en "5 minutes ago", "in 2 hours"; de "vor 5 Minuten").
 * Equal times render as past ("0 seconds ago").
 */
export function formatRelativeTime(fromMs: number, nowMs: number, locale: string): string {
  const { value, unit, isFuture } = relativeTime(fromMs, nowMs);
  // -0 is what makes Intl choose the past form for a zero value.
  return new Intl.RelativeTimeFormat(locale, { numeric: 'always' }).format(isFuture ? value : -value, unit);
}

/**
 * `n` with its integer part grouped in threes by commas, whatever the locale (spec §9): `1234567` →
 * `"1,234,567"`, `-1234` → `"-1,234"`, `1234.5` → `"1,234.5"`. The digits are those of `String(n)`, so no
 * rounding happens; magnitudes of 1e21 and above are written out in full instead of in exponent form, tiny
 * magnitudes keep their exponent form (nothing to group), `-0` gives `"0"`, and NaN/Infinity are returned
 * as `String(n)`.
 */
export function groupThousands(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  // Every double of 1e21 or more is an integer, so BigInt writes its exact digits where String would use "e".
  const digits = abs >= 1e21 ? BigInt(abs).toString() : String(abs);
  const sign = n < 0 ? '-' : '';
  if (digits.includes('e')) return sign + digits;
  const [integer, fraction] = digits.split('.');
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return sign + grouped + (fraction === undefined ? '' : `.${fraction}`);
}

/**
 * `n` rounded to the nearest multiple of 5 (spec §9), halves upwards as `Math.round` does: 2.5 → 5,
 * 7.4 → 5, -2 → 0, -2.5 → 0. Never returns `-0`, so the result prints and compares as plain 0.
 */
export function roundToNearest5(n: number): number {
  const rounded = Math.round(n / 5) * 5;
  return rounded === 0 ? 0 : rounded;
}

/** The table column width steps of spec §9, in pixels, narrowest first. */
export const COLUMN_WIDTH_STEPS = [150, 200, 235, 250, 300] as const;

/** Pixels allowed per character; spec §9 says 7–8, and the upper bound guarantees the label fits. */
export const COLUMN_PX_PER_CHAR = 8;

/**
 * The width in pixels of a table column headed `label` (spec §9). Rule: `need = characters × 8`, counting
 * Unicode code points of the trimmed label; the result is the smallest step of 150, 200, 235, 250, 300 with
 * `step >= need`, or `need` itself when `need` exceeds 300 (labels over 37 characters).
 *
 * @example columnWidth('Name') // 150
 * @example columnWidth('Connection status updated') // 200 (25 chars → 200 px)
 */
export function columnWidth(label: string): number {
  const need = [...label.trim()].length * COLUMN_PX_PER_CHAR;
  return COLUMN_WIDTH_STEPS.find((step) => step >= need) ?? need;
}
