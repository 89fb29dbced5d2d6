import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** Page sizes offered on server-paged lists. */
export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** Where a server-paged list is: page, size, sort and search, kept in the address so Back and links restore it. */
export interface ListState<Sort extends string> {
  /** 1-based. */
  page: number;
  pageSize: PageSize;
  sort: Sort;
  order: 'asc' | 'desc';
  /** Search text; empty for none. */
  q: string;
}

/** The API query of a list state (`limit`/`offset` paging, `q` only when searching). */
export interface ListQuery<Sort extends string> {
  limit: number;
  offset: number;
  sort: Sort;
  order: 'asc' | 'desc';
  q?: string;
}

const isOneOf = <T extends string | number>(options: readonly T[], value: unknown): value is T =>
  options.includes(value as T);

/**
 * Reading and writing one list's state in the address, for a list sorted by one of `sorts`. Anything missing
 * or malformed in the address falls back to the defaults; defaults are left out of the address to keep it short.
 */
export function listStateCodec<Sort extends string>(sorts: readonly Sort[], defaultSort: Sort) {
  const defaults: ListState<Sort> = { page: 1, pageSize: 25, sort: defaultSort, order: 'asc', q: '' };
  return {
    defaults,
    parse(params: URLSearchParams): ListState<Sort> {
      const page = Number(params.get('page'));
      const size = Number(params.get('size'));
      const sort = params.get('sort');
      return {
        page: Number.isInteger(page) && page >= 1 ? page : defaults.page,
        pageSize: isOneOf(PAGE_SIZES, size) ? size : defaults.pageSize,
        sort: isOneOf(sorts, sort) ? sort : defaults.sort,
        order: params.get('order') === 'desc' ? 'desc' : 'asc',
        q: params.get('q') ?? '',
      };
    },
    toSearchParams(state: ListState<Sort>): URLSearchParams {
      const params = new URLSearchParams();
      if (state.q) params.set('q', state.q);
      if (state.page !== defaults.page) params.set('page', String(state.page));
      if (state.pageSize !== defaults.pageSize) params.set('size', String(state.pageSize));
      if (state.sort !== defaults.sort) params.set('sort', state.sort);
      if (state.order !== defaults.order) params.set('order', state.order);
      return params;
    },
    toQuery(state: ListState<Sort>): ListQuery<Sort> {
      const q = state.q.trim();
      return {
        limit: state.pageSize,
        offset: (state.page - 1) * state.pageSize,
        sort: state.sort,
        order: state.order,
        ...(q ? { q } : {}),
      };
    },
  };
}

/** A page of a large list as the server answers it (the contracts' `KeysetPage`). */
export interface KeysetPageData<T> {
  items: T[];
  /** Null when the server was asked not to count. */
  total: number | null;
  totalIsEstimate: boolean;
  nextCursor: string | null;
}

/** A page as the screens read it: the total is always there, from this answer or an earlier one. */
export type ListPage<T> = KeysetPageData<T> & { total: number };

/** How long a counted total stands in for a new count when pages of the same filter are turned. */
export const TOTAL_REUSE_MS = 60_000;

type PagingFields = { limit?: number; offset?: number; cursor?: string; withTotal?: 'true' | 'false' };

/** A list query without what only chooses the page, as a stable string: equal for pages of one filter. */
function filterOf(query: PagingFields): string {
  const { limit: _limit, offset: _offset, cursor: _cursor, withTotal: _withTotal, ...filter } = query;
  return JSON.stringify(Object.entries(filter).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Fetches a page of a large list (users, groups, group members, the event log) so that turning pages costs the
 * server neither a count nor a deep OFFSET, while the page shown is the same:
 * - when a page of the same filter in the cache (keys under `listKey`, ending in their query) carries a total
 *   counted less than {@link TOTAL_REUSE_MS} ago and not invalidated since (every change the app makes to the
 *   list invalidates it), the server is asked not to count (`withTotal=false`) and that total is kept;
 * - when the page just before this one is cached, this one is asked for after its `nextCursor` (keyset).
 * The last page (no `nextCursor`) gives the exact total as its offset plus its rows.
 */
export async function fetchListPage<T, Q extends PagingFields>(
  client: QueryClient,
  listKey: QueryKey,
  query: Q,
  fetchPage: (query: Q) => Promise<KeysetPageData<T>>,
): Promise<ListPage<T>> {
  const filter = filterOf(query);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? PAGE_SIZES[0];
  let known: { total: number; totalIsEstimate: boolean } | null = null;
  let cursor: string | undefined;
  for (const cached of client.getQueryCache().findAll({ queryKey: listKey })) {
    const cachedQuery = cached.queryKey.at(-1) as PagingFields | undefined;
    const data = cached.state.data as KeysetPageData<T> | undefined;
    if (!cachedQuery || !data || cached.state.isInvalidated || filterOf(cachedQuery) !== filter) continue;
    if (!known && data.total !== null && Date.now() - cached.state.dataUpdatedAt < TOTAL_REUSE_MS) {
      known = { total: data.total, totalIsEstimate: data.totalIsEstimate };
    }
    const isPrevious =
      (cachedQuery.limit ?? PAGE_SIZES[0]) === limit && (cachedQuery.offset ?? 0) === offset - limit;
    if (isPrevious && data.nextCursor) cursor = data.nextCursor;
  }
  const page = await fetchPage({
    ...query,
    ...(known ? { withTotal: 'false' } : {}),
    ...(cursor ? { cursor } : {}),
  });
  // `null`, not just missing: the server said this is the last page.
  if (page.nextCursor === null && (page.items.length > 0 || offset === 0)) {
    return { ...page, total: offset + page.items.length, totalIsEstimate: false };
  }
  if (page.total !== null) return { ...page, total: page.total };
  return {
    ...page,
    total: known?.total ?? offset + page.items.length,
    totalIsEstimate: known?.totalIsEstimate ?? true,
  };
}
