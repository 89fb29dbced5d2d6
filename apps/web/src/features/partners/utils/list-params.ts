import { MANAGED_TENANT_SORTS, TENANT_STATUSES, type TenantStatus } from '@palisade/contracts';
import { type ListState, listStateCodec } from '../../../lib/list-state';
import type { ManagedTenantsListParams } from '../api/partners-keys';

export type ManagedTenantSort = (typeof MANAGED_TENANT_SORTS)[number];
export type TenantStatusFilter = 'all' | TenantStatus;

/** Where the console's list is (page, size, order, search and status), kept in the address. */
export interface ManagedTenantsListState extends ListState<ManagedTenantSort> {
  status: TenantStatusFilter;
}

const codec = listStateCodec(MANAGED_TENANT_SORTS, 'name');

const isStatus = (value: string | null): value is TenantStatus =>
  (TENANT_STATUSES as readonly (string | null)[]).includes(value);

/** The list state in the address; anything missing or malformed falls back to the defaults. */
export const managedTenantsListCodec = {
  parse(params: URLSearchParams): ManagedTenantsListState {
    const status = params.get('status');
    return { ...codec.parse(params), status: isStatus(status) ? status : 'all' };
  },
  toSearchParams(state: ManagedTenantsListState): URLSearchParams {
    const params = codec.toSearchParams(state);
    if (state.status !== 'all') params.set('status', state.status);
    return params;
  },
};

/** The API query of a list state: paging, order, search, and the status when it is not "all". */
export function toManagedTenantsQuery(state: ManagedTenantsListState): ManagedTenantsListParams {
  return { ...codec.toQuery(state), ...(state.status !== 'all' ? { status: state.status } : {}) };
}

/** Whether the list is narrowed by a search or a status (an empty answer then means "no match"). */
export function isNarrowed(state: ManagedTenantsListState): boolean {
  return state.q.trim() !== '' || state.status !== 'all';
}
