import { Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useReportFormat } from '../utils/format';

/** A report's query in its states: loading, failed (with a retry), or the report with when it covers. */
export function ReportBody<T extends { from: string; to: string; generatedAt: string }>({
  query,
  showPeriod = true,
  children,
}: {
  query: UseQueryResult<T>;
  showPeriod?: boolean;
  children: (report: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const format = useReportFormat();
  if (query.isPending) return <LoadingState label={t('reports.loading', 'Making the report…')} />;
  if (!query.data) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const report = query.data;
  return (
    <>
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      <Text size="sm" c="dimmed">
        {showPeriod
          ? t('reports.periodLine', 'Period: {{period}} · made {{generated}}', {
              period: format.period(report.from, report.to),
              generated: format.dateTime(report.generatedAt),
            })
          : t('reports.generatedLine', 'Checked {{generated}}', {
              generated: format.dateTime(report.generatedAt),
            })}
      </Text>
      {children(report)}
    </>
  );
}
