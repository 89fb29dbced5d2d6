import { type ReportKind, reportEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { attachmentName, fileRequest, useLostSession } from '../../../lib/file-request';
import { showMutationError } from '../../../lib/mutation-toast';
import { saveBlob } from '../../../lib/save-file';

const PDF_PATHS: Record<ReportKind, string> = {
  dsb: reportEndpoints.getDsbPdf.path,
  analytics: reportEndpoints.getAnalyticsPdf.path,
  'weekly-sase-insights': reportEndpoints.getWeeklyInsightsPdf.path,
  'security-compliance': reportEndpoints.getCompliancePdf.path,
};

/**
 * What the PDF covers: the screen's own parameters (the brief's period, the analytics range, and `source` when
 * the screen leaves simulated traffic out).
 */
export type PdfParams = Record<string, string | undefined>;

/** A report as a PDF file (`GET /api/reports/:tenant/<kind>/pdf`), in the language the console shows. */
export async function downloadReportPdf(
  tenant: string,
  kind: ReportKind,
  params: PdfParams,
  language: string,
  onLostSession: () => void,
) {
  const path = PDF_PATHS[kind].replace(':tenant', encodeURIComponent(tenant));
  const lng = language.startsWith('de') ? 'de' : 'en';
  const response = await fileRequest(path, { query: { ...params, lng }, onLostSession });
  return { blob: await response.blob(), fileName: attachmentName(response) ?? `${kind}-${tenant}.pdf` };
}

/** Downloads the PDF and saves it through the browser; a failure shows the error toast. */
export function useDownloadReportPdf(tenant: string, kind: ReportKind) {
  const { t, i18n } = useTranslation();
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (params: PdfParams) => downloadReportPdf(tenant, kind, params, i18n.language, onLostSession),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) =>
      showMutationError(t, error, { title: t('reports.pdf.failed', 'The PDF could not be made') }),
  });
}
