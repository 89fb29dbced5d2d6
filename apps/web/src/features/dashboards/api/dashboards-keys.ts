import type { Decision, TelemetryDimension, TelemetrySource } from '@palisade/contracts';

/** A dashboard's range as the API takes it, and whose decisions it counts (both sources when absent). */
export interface ApiRange {
  from: string;
  to: string;
  source?: TelemetrySource;
}

/** What one top list asks for. */
export interface TopParams extends ApiRange {
  dimension: TelemetryDimension;
  decision?: Decision;
  limit: number;
}

/**
 * Query keys of the dashboards, all under `['tenant', tenant, 'dashboards']`, so a tenant switch never shows
 * another tenant's figures.
 */
export const dashboardsKeys = {
  all: (tenant: string) => ['tenant', tenant, 'dashboards'] as const,
  overview: (tenant: string, range: ApiRange) => ['tenant', tenant, 'dashboards', 'overview', range] as const,
  top: (tenant: string, params: TopParams) => ['tenant', tenant, 'dashboards', 'top', params] as const,
  privateAccess: (tenant: string, range: ApiRange) =>
    ['tenant', tenant, 'dashboards', 'private-access', range] as const,
};
