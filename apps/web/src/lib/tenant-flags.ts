/**
 * The feature flags and configuration flags of the tenant the console works in (`GET /api/tenant/:tenant/flags`):
 * a partner who opened acme sees acme's. The navigation hides entries behind a flag that is off, the router shows
 * "not included in this workspace" instead of their screens (contracts `FEATURE_ROUTES`, `CONFIG_ROUTES`), and
 * screens hide actions (copy) with {@link useConfigFlag}. The server refuses the routes behind them anyway.
 */
import {
  CONFIG_FLAGS,
  type ConfigFlag,
  type ConfigFlagValues,
  type FeatureFlag,
  routeFlag,
  type TenantFlags,
  tenantFeatureEndpoints,
} from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { request } from './api-client';
import { useSession, useWorkingTenant } from './auth';

/** What the checks read: the features a tenant has and its configuration flags. */
export interface TenantFlagValues {
  features: readonly FeatureFlag[];
  configurations: ConfigFlagValues;
}

/** Query key of a tenant's flags, under the tenant so a switch never shows another tenant's. */
export const tenantFlagsKey = (tenant: string) => ['tenant', tenant, 'flags'] as const;

export function getTenantFlags(tenant: string, signal?: AbortSignal): Promise<TenantFlags> {
  return request(tenantFeatureEndpoints.getTenantFlags, { params: { tenant }, signal, silent: true });
}

export function tenantFlagsQuery(tenant: string, enabled = true) {
  return queryOptions({
    queryKey: tenantFlagsKey(tenant),
    queryFn: ({ signal }) => getTenantFlags(tenant, signal),
    // Flags change rarely; the partner console and /configurations refresh them when they change them.
    staleTime: 60_000,
    enabled: enabled && tenant !== '',
    meta: { isSilent: true },
  });
}

/**
 * The working tenant's flags, or null while they are not known. The session carries those of the tenant it works
 * in (its own, or the one a partner's session opened), so they are read from it; only a tenant shown without
 * being opened (an embedded dashboard's) is asked for.
 */
export function useTenantFlags(): TenantFlagValues | null {
  const tenant = useWorkingTenant();
  const { session } = useSession();
  const isSessionTenant = !!session && (session.target?.tenant ?? session.tenant) === tenant;
  const query = useQuery(tenantFlagsQuery(tenant, !!session && !isSessionTenant));
  const features = isSessionTenant ? session.features : query.data?.features;
  const configurations = isSessionTenant ? session.configurations : query.data?.configurations;
  // One object while the flags stay the same, so what is derived from them (the sidebar) is not rebuilt.
  return useMemo(
    () => (features ? { features, configurations: configurations ?? { ...CONFIG_FLAGS } } : null),
    [features, configurations],
  );
}

/** Whether the working tenant has a feature (true while not known yet, so nothing blinks away). */
export function useFeature(flag: FeatureFlag): boolean {
  const flags = useTenantFlags();
  return flags ? flags.features.includes(flag) : true;
}

/** A configuration flag of the working tenant (its default while not known yet). */
export function useConfigFlag(flag: ConfigFlag): boolean {
  const flags = useTenantFlags();
  return flags ? flags.configurations[flag] : CONFIG_FLAGS[flag];
}

/** Whether a route (a pattern or a path without parameters) is open with these flags. */
export function isRouteIncluded(flags: TenantFlagValues | null, route: string): boolean {
  const gate = routeFlag(route);
  if (!gate || !flags) return true;
  return gate.kind === 'feature' ? flags.features.includes(gate.flag) : flags.configurations[gate.flag];
}
