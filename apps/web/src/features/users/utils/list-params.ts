import { USER_SORTS } from '@palisade/contracts';
import type { UsersListParams } from '../api/users-keys';

/** Page sizes offered on the users list. */
export const PAGE_SIZES = [25, 50, 100] as const;

/** Where the users list is: page, size, sort and search, kept in the address so Back and links restore it. */
export interface UsersListState {
  /** 1-based. */
  page: number;
  pageSize: (typeof PAGE_SIZES)[number];
  sort: (typeof USER_SORTS)[number];
  order: 'asc' | 'desc';
  /** Search text; empty for none. */
  q: string;
}

export const DEFAULT_LIST_STATE: UsersListState = {
  page: 1,
  pageSize: 25,
  sort: 'username',
  order: 'asc',
  q: '',
};

const isOneOf = <T extends string | number>(options: readonly T[], value: unknown): value is T =>
  options.includes(value as T);

/** Reads the list state from the address, falling back to the defaults for anything missing or malformed. */
export function parseListState(params: URLSearchParams): UsersListState {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  const sort = params.get('sort');
  const order = params.get('order');
  return {
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULT_LIST_STATE.page,
    pageSize: isOneOf(PAGE_SIZES, size) ? size : DEFAULT_LIST_STATE.pageSize,
    sort: isOneOf(USER_SORTS, sort) ? sort : DEFAULT_LIST_STATE.sort,
    order: order === 'desc' ? 'desc' : 'asc',
    q: params.get('q') ?? '',
  };
}

/** The address parameters of a list state; defaults are left out to keep the URL short. */
export function toSearchParams(state: UsersListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.page !== DEFAULT_LIST_STATE.page) params.set('page', String(state.page));
  if (state.pageSize !== DEFAULT_LIST_STATE.pageSize) params.set('size', String(state.pageSize));
  if (state.sort !== DEFAULT_LIST_STATE.sort) params.set('sort', state.sort);
  if (state.order !== DEFAULT_LIST_STATE.order) params.set('order', state.order);
  return params;
}

/** The API query of a list state (`limit`/`offset` paging, `q` only when searching). */
export function toListQuery(state: UsersListState): UsersListParams {
  const q = state.q.trim();
  return {
    limit: state.pageSize,
    offset: (state.page - 1) * state.pageSize,
    sort: state.sort,
    order: state.order,
    ...(q ? { q } : {}),
  };
}
