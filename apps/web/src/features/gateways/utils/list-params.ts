import { GATEWAY_SORTS, GATEWAY_STATUSES, type GatewayStatus } from '@palisade/contracts';
import { type ListState, listStateCodec } from '../../../lib/list-state';
import type { GatewaysListParams } from '../api/gateways-keys';

/** The kind filter of the list: the contract's `kind` query, or every kind. */
export const GATEWAY_KIND_FILTERS = ['all', 'cybernode', 'site', 'virtual'] as const;
export type GatewayKindFilter = (typeof GATEWAY_KIND_FILTERS)[number];
export type GatewayStatusFilter = 'all' | GatewayStatus;
export type GatewaySort = (typeof GATEWAY_SORTS)[number];

/** Where the gateways list is (page, size, sort, search, kind and status), kept in the address. */
export interface GatewaysListState extends ListState<GatewaySort> {
  kind: GatewayKindFilter;
  status: GatewayStatusFilter;
}

const codec = listStateCodec(GATEWAY_SORTS, 'name');

const isKind = (value: string | null): value is GatewayKindFilter =>
  (GATEWAY_KIND_FILTERS as readonly (string | null)[]).includes(value);
const isStatus = (value: string | null): value is GatewayStatus =>
  (GATEWAY_STATUSES as readonly (string | null)[]).includes(value);

/** The list state in the address; anything missing or malformed falls back to the defaults. */
export const gatewaysListCodec = {
  parse(params: URLSearchParams): GatewaysListState {
    const kind = params.get('kind');
    const status = params.get('status');
    return {
      ...codec.parse(params),
      kind: isKind(kind) ? kind : 'all',
      status: isStatus(status) ? status : 'all',
    };
  },
  toSearchParams(state: GatewaysListState): URLSearchParams {
    const params = codec.toSearchParams(state);
    if (state.kind !== 'all') params.set('kind', state.kind);
    if (state.status !== 'all') params.set('status', state.status);
    return params;
  },
};

/**
 * The API query of a list state: paging, order, search, and the filters that are not "all". `fixedKind` (the
 * virtual cybernodes screen) overrides the kind of the address.
 */
export function toGatewaysQuery(state: GatewaysListState, fixedKind?: 'virtual'): GatewaysListParams {
  const kind = fixedKind ?? state.kind;
  return {
    ...codec.toQuery(state),
    ...(kind !== 'all' ? { kind } : {}),
    ...(state.status !== 'all' ? { status: state.status } : {}),
  };
}
