import { MAX_DASHBOARD_RANGE_DAYS } from '@palisade/contracts';

/** The time ranges of the dashboards: four presets ending now, or a chosen start and end. */
export const DASHBOARD_RANGES = ['1h', '24h', '7d', '30d', 'custom'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];
export type PresetRange = Exclude<DashboardRange, 'custom'>;

/** How far back each preset reaches. */
export const PRESET_MS: Record<PresetRange, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

/** The range a dashboard opens on. */
export const DEFAULT_RANGE: DashboardRange = '24h';

const MINUTE_MS = 60_000;
const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/** A dashboard's range as the address keeps it (`?range=7d`, or `?range=custom&from=…&to=…` in local time). */
export interface RangeState {
  range: DashboardRange;
  /** With the custom range: `datetime-local` values (`2026-03-01T09:30`, the browser's time zone). */
  from: string;
  to: string;
}

/** A range the API can be asked for, or why the chosen one cannot be. */
export type ResolvedRange =
  | { ok: true; from: string; to: string }
  | { ok: false; reason: 'incomplete' | 'inverted' | 'tooLong' };

/** A `datetime-local` value as an ISO instant (the browser's time zone), or undefined when empty or invalid. */
export function localToIso(value: string): string | undefined {
  if (!LOCAL_DATETIME.test(value)) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/**
 * An ISO instant as a `datetime-local` value to the minute, in the browser's time zone; `roundUp` takes the next
 * minute when the instant is within one (the end of a range, so it still covers that instant).
 */
export function isoToLocal(iso: string, roundUp = false): string {
  const ms = Date.parse(iso);
  const minute = roundUp ? Math.ceil(ms / MINUTE_MS) * MINUTE_MS : Math.floor(ms / MINUTE_MS) * MINUTE_MS;
  const date = new Date(minute);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}`;
}

/** The range of an address; anything missing or malformed falls back to the default. */
export function parseRange(params: URLSearchParams): RangeState {
  const range = params.get('range');
  const valid = (DASHBOARD_RANGES as readonly string[]).includes(range ?? '')
    ? (range as DashboardRange)
    : null;
  const local = (key: string) => {
    const value = params.get(key)?.trim() ?? '';
    return LOCAL_DATETIME.test(value) ? value : '';
  };
  const chosen = valid ?? DEFAULT_RANGE;
  return {
    range: chosen,
    from: chosen === 'custom' ? local('from') : '',
    to: chosen === 'custom' ? local('to') : '',
  };
}

/** The address with `state` written into it (other parameters kept; the default range left out). */
export function writeRange(current: URLSearchParams, state: RangeState): URLSearchParams {
  const params = new URLSearchParams(current);
  for (const key of ['range', 'from', 'to']) params.delete(key);
  if (state.range !== DEFAULT_RANGE) params.set('range', state.range);
  if (state.range === 'custom') {
    if (state.from) params.set('from', state.from);
    if (state.to) params.set('to', state.to);
  }
  return params;
}

/**
 * The API range of a state. A preset ends at the start of the next minute after `nowMs` (so the range stays the
 * same for a minute, and so do the queries it keys) and starts the preset's length before; a custom range needs
 * both ends, the start before the end, and at most {@link MAX_DASHBOARD_RANGE_DAYS} days.
 */
export function resolveRange(state: RangeState, nowMs: number): ResolvedRange {
  if (state.range !== 'custom') {
    const to = Math.ceil(nowMs / MINUTE_MS) * MINUTE_MS;
    return {
      ok: true,
      from: new Date(to - PRESET_MS[state.range]).toISOString(),
      to: new Date(to).toISOString(),
    };
  }
  const from = localToIso(state.from);
  const to = localToIso(state.to);
  if (!from || !to) return { ok: false, reason: 'incomplete' };
  if (Date.parse(from) >= Date.parse(to)) return { ok: false, reason: 'inverted' };
  if (Date.parse(to) - Date.parse(from) > MAX_DASHBOARD_RANGE_DAYS * 86_400_000) {
    return { ok: false, reason: 'tooLong' };
  }
  return { ok: true, from, to };
}
