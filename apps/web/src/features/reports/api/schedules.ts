import { type ReportScheduleInput, reportEndpoints } from '@palisade/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { reportsKeys } from './reports-keys';

/** The weekly report mailings of a tenant (`GET /api/reports/:tenant/schedules`). */
export function useReportSchedules(tenant: string) {
  return useQuery({
    queryKey: reportsKeys.schedules(tenant),
    queryFn: ({ signal }) => request(reportEndpoints.listReportSchedules, { params: { tenant }, signal }),
    meta: { isSilent: true },
  });
}

/** What a save sends: the schedule's id (none for a new one) and the whole schedule. */
export interface SaveScheduleVars {
  id?: string;
  body: ReportScheduleInput;
}

/** Creates a schedule (`POST`) or replaces the one with `id` (`PUT …/:id`); the caller handles errors. */
export function useSaveReportSchedule(tenant: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ id, body }: SaveScheduleVars) =>
      id
        ? request(reportEndpoints.updateReportSchedule, { params: { tenant, id }, body })
        : request(reportEndpoints.createReportSchedule, { params: { tenant }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKeys.schedules(tenant) }),
  });
}

/** Stops a mailing (`DELETE …/:id`). */
export function useDeleteReportSchedule(tenant: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) => request(reportEndpoints.deleteReportSchedule, { params: { tenant, id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKeys.schedules(tenant) }),
  });
}

/** Mails a schedule's report now (`POST …/:id/send`). */
export function useSendReportSchedule(tenant: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) => request(reportEndpoints.sendReportSchedule, { params: { tenant, id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKeys.schedules(tenant) }),
  });
}

/** Mails a recipient a new confirmation link (`POST /api/reports/:tenant/recipients/resend`). */
export function useResendRecipientLink(tenant: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (email: string) =>
      request(reportEndpoints.resendReportRecipientLink, { params: { tenant }, body: { email } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKeys.schedules(tenant) }),
  });
}
