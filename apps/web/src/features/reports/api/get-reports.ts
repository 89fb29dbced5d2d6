import { type AnalyticsQuery, type DsbQuery, reportEndpoints } from '@palisade/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { reportsKeys } from './reports-keys';

/**
 * The reports as JSON, from the reports base (`/api/reports/:tenant/…`). Silent: a screen shows a failure in
 * place with a retry; the previous figures stay while another period loads. The brief and the analytics
 * report count both decision sources unless `source` says which (`gateway`: real traffic only).
 */

export function useDsbReport(tenant: string, query: DsbQuery) {
  return useQuery({
    queryKey: reportsKeys.dsb(tenant, query),
    queryFn: ({ signal }) => request(reportEndpoints.getDsbReport, { params: { tenant }, query, signal }),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

export function useAnalyticsReport(tenant: string, range: AnalyticsQuery) {
  return useQuery({
    queryKey: reportsKeys.analytics(tenant, range),
    queryFn: ({ signal }) =>
      request(reportEndpoints.getAnalyticsReport, { params: { tenant }, query: range, signal }),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

export function useWeeklyInsightsReport(tenant: string) {
  return useQuery({
    queryKey: reportsKeys.weekly(tenant),
    queryFn: ({ signal }) => request(reportEndpoints.getWeeklyInsightsReport, { params: { tenant }, signal }),
    meta: { isSilent: true },
  });
}

export function useComplianceReport(tenant: string) {
  return useQuery({
    queryKey: reportsKeys.compliance(tenant),
    queryFn: ({ signal }) => request(reportEndpoints.getComplianceReport, { params: { tenant }, signal }),
    meta: { isSilent: true },
  });
}
