import { GROUP_SORTS } from '@palisade/contracts';
import type { GroupsListParams } from '../api/groups-keys';

/** Page sizes offered on the groups list and the members table. */
export const PAGE_SIZES = [25, 50, 100] as const;

/** Where the groups list is: page, size, sort and search, kept in the address so Back and links restore it. */
export interface GroupsListState {
  /** 1-based. */
  page: number;
  pageSize: (typeof PAGE_SIZES)[number];
  sort: (typeof GROUP_SORTS)[number];
  order: 'asc' | 'desc';
  /** Search text; empty for none. */
  q: string;
}

export const DEFAULT_LIST_STATE: GroupsListState = {
  page: 1,
  pageSize: 25,
  sort: 'name',
  order: 'asc',
  q: '',
};

const isOneOf = <T extends string | number>(options: readonly T[], value: unknown): value is T =>
  options.includes(value as T);

/** Reads the list state from the address, falling back to the defaults for anything missing or malformed. */
export function parseListState(params: URLSearchParams): GroupsListState {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  const sort = params.get('sort');
  return {
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULT_LIST_STATE.page,
    pageSize: isOneOf(PAGE_SIZES, size) ? size : DEFAULT_LIST_STATE.pageSize,
    sort: isOneOf(GROUP_SORTS, sort) ? sort : DEFAULT_LIST_STATE.sort,
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    q: params.get('q') ?? '',
  };
}

/** The address parameters of a list state; defaults are left out to keep the URL short. */
export function toSearchParams(state: GroupsListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.page !== DEFAULT_LIST_STATE.page) params.set('page', String(state.page));
  if (state.pageSize !== DEFAULT_LIST_STATE.pageSize) params.set('size', String(state.pageSize));
  if (state.sort !== DEFAULT_LIST_STATE.sort) params.set('sort', state.sort);
  if (state.order !== DEFAULT_LIST_STATE.order) params.set('order', state.order);
  return params;
}

/** The API query of a list state (`limit`/`offset` paging, `q` only when searching). */
export function toListQuery(state: GroupsListState): GroupsListParams {
  const q = state.q.trim();
  return {
    limit: state.pageSize,
    offset: (state.page - 1) * state.pageSize,
    sort: state.sort,
    order: state.order,
    ...(q ? { q } : {}),
  };
}
