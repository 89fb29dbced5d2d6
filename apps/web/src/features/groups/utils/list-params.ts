import { GROUP_SORTS } from '@palisade/contracts';
import { listStateCodec } from '../../../lib/list-state';

/** Where the groups list is (page, size, sort, search), kept in the address. */
export const groupsListCodec = listStateCodec(GROUP_SORTS, 'name');
