/** The tabs of `/users/roles`, kept in the address as `?tab=`. */
export const ROLE_TABS = ['roles', 'assignments'] as const;
export type RoleTab = (typeof ROLE_TABS)[number];

/** Page sizes offered on the assignments list. */
export const ASSIGNMENT_PAGE_SIZES = [25, 50, 100] as const;

/** Where the screen is: tab, and the administrators list's page, size and search, all in the address. */
export interface RolesScreenState {
  tab: RoleTab;
  /** 1-based. */
  page: number;
  pageSize: (typeof ASSIGNMENT_PAGE_SIZES)[number];
  /** Search text; empty for none. */
  q: string;
}

export const DEFAULT_ROLES_STATE: RolesScreenState = { tab: 'roles', page: 1, pageSize: 25, q: '' };

const isOneOf = <T extends string | number>(options: readonly T[], value: unknown): value is T =>
  options.includes(value as T);

/** Reads the screen state from the address, falling back to the defaults for anything missing or malformed. */
export function parseRolesState(params: URLSearchParams): RolesScreenState {
  const tab = params.get('tab');
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  return {
    tab: isOneOf(ROLE_TABS, tab) ? tab : DEFAULT_ROLES_STATE.tab,
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULT_ROLES_STATE.page,
    pageSize: isOneOf(ASSIGNMENT_PAGE_SIZES, size) ? size : DEFAULT_ROLES_STATE.pageSize,
    q: params.get('q') ?? '',
  };
}

/** The address parameters of a state; the tab is always written, the list's defaults are left out. */
export function toRolesSearchParams(state: RolesScreenState): URLSearchParams {
  const params = new URLSearchParams({ tab: state.tab });
  if (state.tab !== 'assignments') return params;
  if (state.q) params.set('q', state.q);
  if (state.page !== DEFAULT_ROLES_STATE.page) params.set('page', String(state.page));
  if (state.pageSize !== DEFAULT_ROLES_STATE.pageSize) params.set('size', String(state.pageSize));
  return params;
}
