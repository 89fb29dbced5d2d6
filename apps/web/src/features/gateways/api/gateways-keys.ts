import type { GatewayCreated, GatewayListQuery } from '@palisade/contracts';
import type { z } from 'zod';

/** List query as the screens send it: every field of the contract's query may be left to its default. */
export type GatewaysListParams = Partial<GatewayListQuery>;

/**
 * Query keys of the gateways area, all under `['tenant', tenant, 'gateways']` so that one invalidation
 * refreshes lists and details of a tenant, and a tenant switch never shows another tenant's cache.
 */
export const gatewaysKeys = {
  all: (tenant: string) => ['tenant', tenant, 'gateways'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'gateways', 'list'] as const,
  list: (tenant: string, query: GatewaysListParams) => ['tenant', tenant, 'gateways', 'list', query] as const,
  details: (tenant: string) => ['tenant', tenant, 'gateways', 'detail'] as const,
  detail: (tenant: string, id: string) => ['tenant', tenant, 'gateways', 'detail', id] as const,
  /** The tenant's kept policy bundle versions (tenant-wide, not per gateway). */
  bundles: (tenant: string) => ['tenant', tenant, 'gateways', 'bundles'] as const,
  bundleDiff: (tenant: string, version: string) =>
    ['tenant', tenant, 'gateways', 'bundles', 'diff', version] as const,
  /** Every gateway of the tenant at once, for the network map. */
  map: (tenant: string) => ['tenant', tenant, 'gateways', 'map'] as const,
};

/** How often the gateway screens refresh while the tab is visible: once per heartbeat. */
export { GATEWAY_HEARTBEAT_MS as GATEWAYS_LIVE_REFRESH_MS } from '@palisade/contracts';

/** A gateway with its one-time enrolment token, as adding it or rotating its credentials answers. */
export type GatewayCreatedAnswer = z.infer<typeof GatewayCreated>;
