import { USER_DEVICES_FILTERS, type UserDevicesQuery } from '@palisade/contracts';
import { type ListState, listStateCodec } from '../../../lib/list-state';

/** One of the contract's filters of the users-and-devices list. */
export type UserDevicesFilter = (typeof USER_DEVICES_FILTERS)[number];

/** The list is ordered by the server (by username); it has no sort of its own. */
const SORTS = ['username'] as const;

/** Where the users-and-devices list is (page, size, search, filter), kept in the address. */
export interface UserDevicesListState extends ListState<(typeof SORTS)[number]> {
  filter: UserDevicesFilter;
}

const codec = listStateCodec(SORTS, 'username');

const isFilter = (value: string | null): value is UserDevicesFilter =>
  (USER_DEVICES_FILTERS as readonly (string | null)[]).includes(value);

/** Reads the list state from the address; anything missing or malformed falls back to the defaults. */
export function parseListState(params: URLSearchParams): UserDevicesListState {
  const filter = params.get('filter');
  return { ...codec.parse(params), filter: isFilter(filter) ? filter : 'all' };
}

/** Writes the list state to the address, leaving out defaults. */
export function toSearchParams(state: UserDevicesListState): URLSearchParams {
  const params = codec.toSearchParams(state);
  if (state.filter !== 'all') params.set('filter', state.filter);
  return params;
}

/** The API query of a list state: paging, search and filter (the filter only when it is not "all"). */
export function toListQuery(
  state: UserDevicesListState,
  method: UserDevicesQuery['method'],
): Partial<UserDevicesQuery> {
  const { limit, offset, q } = codec.toQuery(state);
  return {
    limit,
    offset,
    ...(q ? { q } : {}),
    ...(state.filter !== 'all' ? { filter: state.filter } : {}),
    ...(method !== 'any' ? { method } : {}),
  };
}
