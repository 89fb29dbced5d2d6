import { Table, VisuallyHidden } from '@mantine/core';
import type { SitePerformance, SitePerformanceRange } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { formatThroughput } from '../../../lib/throughput';
import { formatLatency, formatPercent, pointTimeFormatter } from '../utils/format';
import { useMeasureLabels, useRangePhrases } from './labels';

/** Props of {@link SiteDataTable}. */
export interface SiteDataTableProps {
  site: SitePerformance;
  range: SitePerformanceRange;
  /** The width of one point, as text ("15 minutes"). */
  bucket: string;
}

/**
 * The figures the charts draw, as a table only screen readers see: one row per point, a cell that says so where
 * the gateway was not heard from. The numbers are reachable without the charts.
 */
export function SiteDataTable({ site, range, bucket }: SiteDataTableProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const measures = useMeasureLabels();
  const phrase = useRangePhrases()[range];
  const pointTime = pointTimeFormatter(locale);
  const noData = t('sitePerformance.table.noData', 'Not heard from');
  const cell = (value: number | null, format: (value: number, locale: string) => string) =>
    value === null ? noData : format(value, locale);

  return (
    <VisuallyHidden>
      <Table>
        <Table.Caption>
          {t('sitePerformance.table.caption', 'Figures of {{site}} {{range}}, one row per {{bucket}}', {
            site: site.name,
            range: phrase,
            bucket,
          })}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('sitePerformance.table.time', 'Time')}</Table.Th>
            <Table.Th scope="col">{measures.latency}</Table.Th>
            <Table.Th scope="col">{measures.loss}</Table.Th>
            <Table.Th scope="col">{measures.throughput}</Table.Th>
            <Table.Th scope="col">{measures.uptime}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {site.series.map((point) => (
            <Table.Tr key={point.at}>
              <Table.Th scope="row">{pointTime(point.at)}</Table.Th>
              <Table.Td>{cell(point.latencyMs, formatLatency)}</Table.Td>
              <Table.Td>{cell(point.lossPercent, formatPercent)}</Table.Td>
              <Table.Td>{cell(point.throughputBps, formatThroughput)}</Table.Td>
              <Table.Td>{formatPercent(point.uptimePercent, locale)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </VisuallyHidden>
  );
}
