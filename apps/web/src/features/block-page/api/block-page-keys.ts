import type { AccessRequestStatus } from '@palisade/contracts';

/** What the administrators' list asks the server: paging and one status (or all). */
export interface AccessRequestsQuery {
  limit: number;
  offset: number;
  status?: AccessRequestStatus;
}

/** What the gateway's redirect put in the block page's address. */
export interface BlockPageAddress {
  type: string;
  id: string | null;
  query: { tenant?: string; host?: string; url?: string; client?: string };
}

/**
 * Query keys of the block page. The public page has no session and no working tenant: its key is the address
 * itself. The administrators' access requests sit under `['tenant', tenant, 'accessRequests']`, so a tenant
 * switch never shows another tenant's, and a decision refreshes the list and the navigation badge together.
 */
export const blockPageKeys = {
  page: (address: BlockPageAddress) => ['blockPage', address] as const,
  all: (tenant: string) => ['tenant', tenant, 'accessRequests'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'accessRequests', 'list'] as const,
  list: (tenant: string, query: AccessRequestsQuery) =>
    ['tenant', tenant, 'accessRequests', 'list', query] as const,
  count: (tenant: string) => ['tenant', tenant, 'accessRequests', 'count'] as const,
};
