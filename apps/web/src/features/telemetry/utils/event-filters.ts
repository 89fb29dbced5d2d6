import { Uuid } from '@palisade/contracts';
import { PAGE_SIZES, type PageSize } from '../../../lib/list-state';

/** The time ranges of the event screens: four presets ending now, or a chosen start and end. */
export const TIME_RANGES = ['1h', '24h', '7d', '30d', 'custom'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];
export type PresetRange = Exclude<TimeRange, 'custom'>;

/** How far back each preset reaches. */
export const PRESET_MS: Record<PresetRange, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

/** Where an event screen is (paging, order, time range and filters), kept in the address. */
export interface TelemetryListState<A extends string> {
  /** 1-based. */
  page: number;
  pageSize: PageSize;
  /** Newest first by default. */
  order: 'asc' | 'desc';
  range: TimeRange;
  /** With the custom range: `datetime-local` values (`2026-03-01T09:30`, local time); empty for open. */
  from: string;
  to: string;
  /** Ids of the user, device and gateway the events are narrowed to; empty for any. */
  userId: string;
  deviceId: string;
  gatewayId: string;
  /** One action, or empty for any. */
  action: A | '';
}

/** The filters a user sets (everything but paging and order). */
export type TelemetryFilters<A extends string> = Pick<
  TelemetryListState<A>,
  'range' | 'from' | 'to' | 'userId' | 'deviceId' | 'gatewayId' | 'action'
>;

/** The default range: the last day (the screens open on what just happened, not on a month of rows). */
export const DEFAULT_RANGE: TimeRange = '24h';

/** The filters of an untouched screen. */
export const NO_FILTERS: TelemetryFilters<never> = {
  range: DEFAULT_RANGE,
  from: '',
  to: '',
  userId: '',
  deviceId: '',
  gatewayId: '',
  action: '',
};

const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/** A `datetime-local` value as an ISO instant (the browser's time zone), or undefined when empty or invalid. */
export function localToIso(value: string): string | undefined {
  if (!LOCAL_DATETIME.test(value)) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** True when both ends of a custom range are set and the range ends before it starts. */
export function isRangeInverted(state: Pick<TelemetryListState<string>, 'range' | 'from' | 'to'>): boolean {
  if (state.range !== 'custom') return false;
  const from = localToIso(state.from);
  const to = localToIso(state.to);
  return from !== undefined && to !== undefined && from > to;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): value is T =>
  value !== null && (values as readonly string[]).includes(value);
const parseId = (value: string | null) => (value && Uuid.safeParse(value).success ? value : '');

/**
 * Reading and writing an event screen's state in the address, for the screen's `actions`. Anything missing or
 * malformed falls back to the defaults; defaults are left out of the address to keep it short.
 */
export function telemetryListCodec<A extends string>(actions: readonly A[]) {
  return {
    parse(params: URLSearchParams): TelemetryListState<A> {
      const page = Number(params.get('page'));
      const size = Number(params.get('size'));
      const range = params.get('range');
      const action = params.get('action');
      const local = (key: string) => {
        const value = params.get(key)?.trim() ?? '';
        return LOCAL_DATETIME.test(value) ? value : '';
      };
      const isCustom = range === 'custom';
      return {
        page: Number.isInteger(page) && page >= 1 ? page : 1,
        pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? (size as PageSize) : PAGE_SIZES[0],
        order: params.get('order') === 'asc' ? 'asc' : 'desc',
        range: oneOf(TIME_RANGES, range) ? range : DEFAULT_RANGE,
        from: isCustom ? local('from') : '',
        to: isCustom ? local('to') : '',
        userId: parseId(params.get('userId')),
        deviceId: parseId(params.get('deviceId')),
        gatewayId: parseId(params.get('gatewayId')),
        action: oneOf(actions, action) ? action : '',
      };
    },
    toSearchParams(state: TelemetryListState<A>): URLSearchParams {
      const params = new URLSearchParams();
      if (state.range !== DEFAULT_RANGE) params.set('range', state.range);
      if (state.range === 'custom' && state.from) params.set('from', state.from);
      if (state.range === 'custom' && state.to) params.set('to', state.to);
      if (state.userId) params.set('userId', state.userId);
      if (state.deviceId) params.set('deviceId', state.deviceId);
      if (state.gatewayId) params.set('gatewayId', state.gatewayId);
      if (state.action) params.set('action', state.action);
      if (state.page !== 1) params.set('page', String(state.page));
      if (state.pageSize !== PAGE_SIZES[0]) params.set('size', String(state.pageSize));
      if (state.order !== 'desc') params.set('order', state.order);
      return params;
    },
  };
}

/** The filters of a state as the API takes them, shared by the list and the export. */
export interface TelemetryFilterQuery<A extends string> {
  order: 'asc' | 'desc';
  from?: string;
  to?: string;
  userId?: string;
  deviceId?: string;
  gatewayId?: string;
  action?: A;
}

/**
 * The filters of a state as API query fields (only those set). A preset range starts `nowMs` minus its length
 * and stays open at the end; a custom range sends the ends that are set, but no end before its start.
 */
export function toFilterQuery<A extends string>(
  state: TelemetryListState<A>,
  nowMs: number,
): TelemetryFilterQuery<A> {
  const from =
    state.range === 'custom'
      ? localToIso(state.from)
      : new Date(nowMs - PRESET_MS[state.range]).toISOString();
  const to = state.range === 'custom' && !isRangeInverted(state) ? localToIso(state.to) : undefined;
  return {
    order: state.order,
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(state.userId ? { userId: state.userId } : {}),
    ...(state.deviceId ? { deviceId: state.deviceId } : {}),
    ...(state.gatewayId ? { gatewayId: state.gatewayId } : {}),
    ...(state.action ? { action: state.action } : {}),
  };
}

/** The list query of a state: the filters plus `limit`/`offset` paging (the cursor is added page by page). */
export function toListQuery<A extends string>(state: TelemetryListState<A>, nowMs: number) {
  return {
    limit: state.pageSize,
    offset: (state.page - 1) * state.pageSize,
    ...toFilterQuery(state, nowMs),
  };
}

/** Whether a user, device, gateway or action narrows the list (an empty answer then means "no match"). */
export function isNarrowed(state: TelemetryFilters<string>): boolean {
  return Boolean(state.userId || state.deviceId || state.gatewayId || state.action);
}

/** Whether any filter differs from an untouched screen's. */
export function hasFilters(state: TelemetryFilters<string>): boolean {
  return isNarrowed(state) || state.range !== DEFAULT_RANGE;
}
