import { telemetryEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type ApiRange, dashboardsKeys, type TopParams } from './dashboards-keys';

const EMPTY_RANGE: ApiRange = { from: '', to: '' };

/**
 * Totals, series and layer split of a range (`GET /api/telemetry/:tenant/overview`). Waits while the range is
 * not one the API takes (null); the previous range's figures stay on screen while the next one loads; silent,
 * the screen shows a failure in place with a retry.
 */
export function overviewQueryOptions(tenant: string, range: ApiRange | null) {
  return queryOptions({
    queryKey: dashboardsKeys.overview(tenant, range ?? EMPTY_RANGE),
    queryFn: ({ signal }) =>
      request(telemetryEndpoints.telemetryOverview, {
        params: { tenant },
        query: range ?? EMPTY_RANGE,
        signal,
      }),
    enabled: range !== null && tenant !== '',
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

export function useTelemetryOverview(tenant: string, range: ApiRange | null) {
  return useQuery(overviewQueryOptions(tenant, range));
}

/** The values of a dimension with the most decisions (`GET /api/telemetry/:tenant/top`). */
export function useTelemetryTop(tenant: string, params: TopParams | null) {
  return useQuery({
    queryKey: dashboardsKeys.top(tenant, params ?? { ...EMPTY_RANGE, dimension: 'destination', limit: 0 }),
    queryFn: ({ signal }) =>
      request(telemetryEndpoints.telemetryTop, {
        params: { tenant },
        query: params as TopParams,
        signal,
      }),
    enabled: params !== null && tenant !== '',
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** Per site gateway: users, devices, sessions, durations and bytes (`GET /api/telemetry/:tenant/private-access`). */
export function usePrivateAccessSummary(tenant: string, range: ApiRange | null) {
  return useQuery({
    queryKey: dashboardsKeys.privateAccess(tenant, range ?? EMPTY_RANGE),
    queryFn: ({ signal }) =>
      request(telemetryEndpoints.privateAccessSummary, {
        params: { tenant },
        query: range ?? EMPTY_RANGE,
        signal,
      }),
    enabled: range !== null && tenant !== '',
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}
