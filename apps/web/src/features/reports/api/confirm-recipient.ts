import { reportEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/** Confirms a report recipient by its mailed link's secret (`POST /api/reports/recipients/confirm`, public). */
export function confirmRecipient(token: string) {
  return request(reportEndpoints.confirmReportRecipient, { body: { token } });
}

/** The confirmation page's one write; the page shows every outcome itself. */
export function useConfirmRecipient() {
  return useMutation({ mutationFn: confirmRecipient, meta: { isSilent: true } });
}
