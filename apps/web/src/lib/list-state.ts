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
