import type { AdminEventsParams } from '../api/events-keys';
import type { AdminEventsExportParams } from '../api/export-admin-events';

/** Page sizes offered on the event log. */
export { PAGE_SIZES } from '../../../lib/list-state';

import { PAGE_SIZES } from '../../../lib/list-state';

/** Where the event log is: paging, order and filters, kept in the address so Back and links restore it. */
export interface EventsListState {
  /** 1-based. */
  page: number;
  pageSize: (typeof PAGE_SIZES)[number];
  order: 'asc' | 'desc';
  /** Part of the actor's name; empty for any. */
  actor: string;
  /** An exact action, or a prefix ending in a dot; empty for any. */
  action: string;
  objectType: string;
  /** `datetime-local` values (`2026-03-01T09:30`, local time); empty for open. */
  from: string;
  to: string;
}

export const DEFAULT_EVENTS_STATE: EventsListState = {
  page: 1,
  pageSize: 25,
  order: 'desc',
  actor: '',
  action: '',
  objectType: '',
  from: '',
  to: '',
};

const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/** A `datetime-local` value as an ISO instant (the browser's time zone), or undefined when empty or invalid. */
export function localToIso(value: string): string | undefined {
  if (!LOCAL_DATETIME.test(value)) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** True when both ends are set and the range ends before it starts. */
export function isRangeInverted(state: Pick<EventsListState, 'from' | 'to'>): boolean {
  const from = localToIso(state.from);
  const to = localToIso(state.to);
  return from !== undefined && to !== undefined && from > to;
}

/** Reads the state from the address, falling back to the defaults for anything missing or malformed. */
export function parseEventsState(params: URLSearchParams): EventsListState {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  const text = (key: string) => params.get(key)?.trim() ?? '';
  const local = (key: string) => (LOCAL_DATETIME.test(text(key)) ? text(key) : '');
  return {
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULT_EVENTS_STATE.page,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size)
      ? (size as EventsListState['pageSize'])
      : DEFAULT_EVENTS_STATE.pageSize,
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    actor: params.get('actor') ?? '',
    action: text('action'),
    objectType: text('objectType'),
    from: local('from'),
    to: local('to'),
  };
}

/** The address parameters of a state; defaults are left out to keep the URL short. */
export function toSearchParams(state: EventsListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.actor) params.set('actor', state.actor);
  if (state.action) params.set('action', state.action);
  if (state.objectType) params.set('objectType', state.objectType);
  if (state.from) params.set('from', state.from);
  if (state.to) params.set('to', state.to);
  if (state.page !== DEFAULT_EVENTS_STATE.page) params.set('page', String(state.page));
  if (state.pageSize !== DEFAULT_EVENTS_STATE.pageSize) params.set('size', String(state.pageSize));
  if (state.order !== DEFAULT_EVENTS_STATE.order) params.set('order', state.order);
  return params;
}

/** The filters of a state as API query fields (only those set; an inverted range sends no `to`). */
export function toFilterQuery(state: EventsListState): AdminEventsExportParams {
  const actor = state.actor.trim();
  const from = localToIso(state.from);
  const to = isRangeInverted(state) ? undefined : localToIso(state.to);
  return {
    order: state.order,
    ...(actor ? { actor } : {}),
    ...(state.action ? { action: state.action } : {}),
    ...(state.objectType ? { objectType: state.objectType } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

/** The list query of a state: the filters plus `limit`/`offset` paging. */
export function toListQuery(state: EventsListState): AdminEventsParams {
  return {
    limit: state.pageSize,
    offset: (state.page - 1) * state.pageSize,
    ...toFilterQuery(state),
  };
}
