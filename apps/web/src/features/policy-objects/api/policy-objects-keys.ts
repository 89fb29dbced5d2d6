import type { ObjectKind } from '@palisade/contracts';

/** Query of the apps catalog as the screen sends it. */
export interface AppListParams {
  q?: string;
  letter?: string;
  custom?: 'true' | 'false';
}

/** Query of the malicious-IP list as the screen sends it. */
export interface MaliciousIpParams {
  q?: string;
  duplicatesOnly?: 'true' | 'false';
  limit: number;
  offset: number;
}

/**
 * Query keys of the policy objects, all under `['tenant', tenant, 'policy-objects']`. Objects refer to each
 * other (a feed feeds the malicious-IP list, a blocked app is flagged in the catalog, every object counts the
 * rules that use it), so a write refreshes the whole area with {@link policyObjectsKeys.all}.
 */
export const policyObjectsKeys = {
  all: (tenant: string) => ['tenant', tenant, 'policy-objects'] as const,
  locations: (tenant: string) => ['tenant', tenant, 'policy-objects', 'locations'] as const,
  apps: (tenant: string, query: AppListParams) =>
    ['tenant', tenant, 'policy-objects', 'apps', query] as const,
  blockedApps: (tenant: string) => ['tenant', tenant, 'policy-objects', 'blocked-apps'] as const,
  categories: (tenant: string) => ['tenant', tenant, 'policy-objects', 'categories'] as const,
  categoryLookup: (tenant: string, domain: string) =>
    ['tenant', tenant, 'policy-objects', 'category-lookup', domain] as const,
  feeds: (tenant: string) => ['tenant', tenant, 'policy-objects', 'feeds'] as const,
  maliciousIps: (tenant: string, query: MaliciousIpParams) =>
    ['tenant', tenant, 'policy-objects', 'malicious-ips', query] as const,
  geo: (tenant: string) => ['tenant', tenant, 'policy-objects', 'geo'] as const,
  geoLookup: (tenant: string, ip: string) => ['tenant', tenant, 'policy-objects', 'geo-lookup', ip] as const,
  whereUsed: (tenant: string, kind: ObjectKind, id: string) =>
    ['tenant', tenant, 'policy-objects', 'where-used', kind, id] as const,
  /** The policies area: deleting an object removes it from rules (and may remove rules). */
  policies: (tenant: string) => ['tenant', tenant, 'policies'] as const,
};
