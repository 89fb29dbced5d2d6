import { INTERNAL_DEVICE_SORTS, type InternalDeviceSort, Uuid } from '@palisade/contracts';
import { type ListState, listStateCodec } from '../../../lib/list-state';
import type { InternalDevicesListParams } from '../api/internal-devices-keys';

/** Where the list is (page, size, order, search and gateway), kept in the address. */
export interface InternalDevicesListState extends ListState<InternalDeviceSort> {
  /** The hosts of one site gateway; empty for every gateway. */
  gatewayId: string;
}

const codec = listStateCodec(INTERNAL_DEVICE_SORTS, 'lastSeenAt');

/**
 * The list state in the address; anything missing or malformed falls back to the defaults: the hosts seen last
 * first (`order` is in the address only when ascending).
 */
export const internalDevicesListCodec = {
  parse(params: URLSearchParams): InternalDevicesListState {
    const gatewayId = params.get('gatewayId');
    return {
      ...codec.parse(params),
      order: params.get('order') === 'asc' ? 'asc' : 'desc',
      gatewayId: gatewayId && Uuid.safeParse(gatewayId).success ? gatewayId : '',
    };
  },
  toSearchParams(state: InternalDevicesListState): URLSearchParams {
    const params = codec.toSearchParams(state);
    params.delete('order');
    if (state.order === 'asc') params.set('order', 'asc');
    if (state.gatewayId) params.set('gatewayId', state.gatewayId);
    return params;
  },
};

/** The API query of a list state: paging, order, search and the gateway when one is chosen. */
export function toInternalDevicesQuery(state: InternalDevicesListState): InternalDevicesListParams {
  return { ...codec.toQuery(state), ...(state.gatewayId ? { gatewayId: state.gatewayId } : {}) };
}

/** Whether the list is narrowed by a search or a gateway (an empty answer then means "no match"). */
export function isNarrowed(state: InternalDevicesListState): boolean {
  return state.q.trim() !== '' || state.gatewayId !== '';
}
