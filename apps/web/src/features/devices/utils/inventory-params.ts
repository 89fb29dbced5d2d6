import {
  DEVICE_KINDS,
  DEVICE_OS,
  DEVICE_SORTS,
  DEVICE_STATES,
  DEVICE_STATUSES,
  type DeviceKind,
  type DeviceOs,
  type DeviceState,
  type DeviceStatus,
  Uuid,
} from '@palisade/contracts';
import { type ListState, listStateCodec } from '../../../lib/list-state';
import type { DevicesExportParams } from '../api/export-devices';
import type { DevicesListParams } from '../api/inventory-keys';

export type DeviceSort = (typeof DEVICE_SORTS)[number];
/** A filter of the list: one of the contract's values, or every one. */
export type Filter<T extends string> = 'all' | T;

/** Where the device list is (page, size, order, search and filters), kept in the address. */
export interface DevicesListState extends ListState<DeviceSort> {
  kind: Filter<DeviceKind>;
  os: Filter<DeviceOs>;
  status: Filter<DeviceStatus>;
  state: Filter<DeviceState>;
  /** Devices of one end user; empty for every owner. */
  userId: string;
  /** Devices of the members of one user group; empty for every group. */
  groupId: string;
}

const codec = listStateCodec(DEVICE_SORTS, 'name');

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string | null): Filter<T> =>
    (values as readonly (string | null)[]).includes(value) ? (value as T) : 'all';
const parseKind = oneOf(DEVICE_KINDS);
const parseOs = oneOf(DEVICE_OS);
const parseStatus = oneOf(DEVICE_STATUSES);
const parseState = oneOf(DEVICE_STATES);
const parseId = (value: string | null) => (value && Uuid.safeParse(value).success ? value : '');

const FILTERS = ['kind', 'os', 'status', 'state'] as const;

/** The list state in the address; anything missing or malformed falls back to the defaults. */
export const devicesListCodec = {
  parse(params: URLSearchParams): DevicesListState {
    return {
      ...codec.parse(params),
      kind: parseKind(params.get('kind')),
      os: parseOs(params.get('os')),
      status: parseStatus(params.get('status')),
      state: parseState(params.get('state')),
      userId: parseId(params.get('userId')),
      groupId: parseId(params.get('groupId')),
    };
  },
  toSearchParams(state: DevicesListState): URLSearchParams {
    const params = codec.toSearchParams(state);
    for (const name of FILTERS) if (state[name] !== 'all') params.set(name, state[name]);
    if (state.userId) params.set('userId', state.userId);
    if (state.groupId) params.set('groupId', state.groupId);
    return params;
  },
};

/** The filters of a list state that narrow it, as the API takes them. */
function filtersOf(state: DevicesListState) {
  return {
    ...(state.kind !== 'all' ? { kind: state.kind } : {}),
    ...(state.os !== 'all' ? { os: state.os } : {}),
    ...(state.status !== 'all' ? { status: state.status } : {}),
    ...(state.state !== 'all' ? { state: state.state } : {}),
    ...(state.userId ? { userId: state.userId } : {}),
    ...(state.groupId ? { groupId: state.groupId } : {}),
  };
}

/** The API query of a list state: paging, order, search, and the filters that are set. */
export function toDevicesQuery(state: DevicesListState): DevicesListParams {
  return { ...codec.toQuery(state), ...filtersOf(state) };
}

/** What the CSV export of a list state covers: its search, filters and order, every page. */
export function toDevicesExportQuery(state: DevicesListState): DevicesExportParams {
  const q = state.q.trim();
  return { sort: state.sort, order: state.order, ...(q ? { q } : {}), ...filtersOf(state) };
}

/** Whether the list is narrowed by a search or a filter (an empty answer then means "no match"). */
export function isNarrowed(state: DevicesListState): boolean {
  return state.q.trim() !== '' || Object.keys(filtersOf(state)).length > 0;
}
