import { USER_SORTS } from '@palisade/contracts';
import { type ListState, listStateCodec } from '../../../lib/list-state';

export { PAGE_SIZES } from '../../../lib/list-state';

/** Where the users list is (page, size, sort, search), kept in the address. */
export type UsersListState = ListState<(typeof USER_SORTS)[number]>;

/** The users list's state in the address. */
export const usersListCodec = listStateCodec(USER_SORTS, 'username');
const codec = usersListCodec;
export const DEFAULT_LIST_STATE = codec.defaults;
export const parseListState = codec.parse;
export const toSearchParams = codec.toSearchParams;
export const toListQuery = codec.toQuery;
