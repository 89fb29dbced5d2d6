import { Button, Stack } from '@mantine/core';
import type { ReportKind } from '@palisade/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsKiosk } from '../../../components/ui/kiosk';
import { PageHeader } from '../../../components/ui/page-header';
import { useWorkingTenant } from '../../../lib/auth';
import { type PdfParams, useDownloadReportPdf } from '../api/download-pdf';
import { SchedulePanel } from './schedule-panel';

/** Props of {@link ReportPage}. */
export interface ReportPageProps {
  kind: ReportKind;
  title: string;
  description: string;
  /** The screen's parameters, for the PDF to cover the same. */
  pdfParams?: PdfParams;
  /** Controls shown above the report (a period or range picker). */
  controls?: ReactNode;
  children: ReactNode;
}

/**
 * A report screen: its title with the PDF download, the report itself, and its weekly mailings. As an embedded
 * dashboard only the report (its controls included) is shown.
 */
export function ReportPage({
  kind,
  title,
  description,
  pdfParams = {},
  controls,
  children,
}: ReportPageProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const isKiosk = useIsKiosk();
  const download = useDownloadReportPdf(tenant, kind);
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description={description}
        actions={
          <Button variant="default" loading={download.isPending} onClick={() => download.mutate(pdfParams)}>
            {t('reports.pdf.download', 'Download PDF')}
          </Button>
        }
      />
      {controls}
      {children}
      {isKiosk ? null : <SchedulePanel kind={kind} />}
    </Stack>
  );
}
