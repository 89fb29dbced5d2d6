import { Group, SegmentedControl, SimpleGrid, Table } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { AnalyticsQuery } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  OnlyRealSwitch,
  SimulatedBadge,
  useOnlyRealTraffic,
} from '../../../components/charts/simulated-badge';
import { useWorkingTenant } from '../../../lib/auth';
import { useAnalyticsReport } from '../api/get-reports';
import { KpiGrid } from '../components/kpi-grid';
import { ReportBody } from '../components/report-body';
import { ReportCard } from '../components/report-card';
import { ReportPage } from '../components/report-page';
import { RequestsChart } from '../components/requests-chart';
import { TopTable } from '../components/top-table';
import { totalsKpis } from '../components/totals-kpis';
import { useReportFormat } from '../utils/format';

const RANGES = { '1d': 1, '7d': 7, '30d': 30, '90d': 90 } as const;
type RangeKey = keyof typeof RANGES;

/** The range of the last `days`, to the minute, fixed when it is picked (so the query stays the same). */
function rangeOf(key: RangeKey): AnalyticsQuery {
  // Seven days is the report's own default.
  if (key === '7d') return {};
  const to = Math.floor(Date.now() / 60_000) * 60_000;
  return { from: new Date(to - RANGES[key] * 86_400_000).toISOString(), to: new Date(to).toISOString() };
}

/**
 * `/reports/analytics` (issue 12): traffic analytics over a range — key figures, requests over time, the split
 * by layer, and the top categories, applications, destinations and users. Like the dashboards, it marks figures
 * that include simulated traffic and can leave it out (`?source=gateway`), the PDF too.
 */
export function Component() {
  const isPhone = useMediaQuery('(max-width: 48em)') ?? false;
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const format = useReportFormat();
  const [rangeKey, setRangeKey] = useState<RangeKey>('7d');
  const [range, setRange] = useState<AnalyticsQuery>({});
  const { onlyReal, setOnlyReal, source } = useOnlyRealTraffic();
  const report = useAnalyticsReport(tenant, { ...range, ...(source ? { source } : {}) });
  const layerNames = {
    dns: t('reports.layers.dns', 'DNS'),
    network: t('reports.layers.network', 'Network'),
    http: t('reports.layers.http', 'Web (HTTP)'),
  };

  return (
    <ReportPage
      kind="analytics"
      title={t('reports.analytics.title', 'Traffic analytics')}
      description={t(
        'reports.analytics.description',
        'Where the traffic went and what the policies decided, by category, application, destination and user.',
      )}
      pdfParams={{ from: range.from, to: range.to, source }}
      controls={
        <Group align="center" gap="lg" wrap="wrap">
          <SegmentedControl
            aria-label={t('reports.analytics.range', 'Time range')}
            value={rangeKey}
            onChange={(value) => {
              setRangeKey(value as RangeKey);
              setRange(rangeOf(value as RangeKey));
            }}
            data={[
              { value: '1d', label: t('reports.ranges.1d', 'Last 24 hours') },
              { value: '7d', label: t('reports.ranges.7d', 'Last 7 days') },
              { value: '30d', label: t('reports.ranges.30d', 'Last 30 days') },
              { value: '90d', label: t('reports.ranges.90d', 'Last 90 days') },
            ]}
            // Four choices side by side are wider than a phone: one above the other there.
            orientation={isPhone ? 'vertical' : 'horizontal'}
            fullWidth={isPhone}
            w={isPhone ? '100%' : 'fit-content'}
          />
          <OnlyRealSwitch checked={onlyReal} onChange={setOnlyReal} />
        </Group>
      }
    >
      <ReportBody query={report}>
        {(data) => (
          <>
            <SimulatedBadge count={data.totals.simulated ?? 0} />
            <KpiGrid
              label={t('reports.sections.keyFigures', 'Key figures')}
              items={totalsKpis(data.totals, t, format)}
            />
            <RequestsChart series={data.series} format={format} />
            <ReportCard title={t('reports.sections.layers', 'Requests per layer')}>
              <Table striped aria-label={t('reports.sections.layers', 'Requests per layer')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('reports.columns.layer', 'Layer')}</Table.Th>
                    <Table.Th scope="col" ta="end">
                      {t('reports.columns.allowed', 'Allowed')}
                    </Table.Th>
                    <Table.Th scope="col" ta="end">
                      {t('reports.columns.blocked', 'Blocked')}
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.layers.map((layer) => (
                    <Table.Tr key={layer.layer}>
                      <Table.Th scope="row" fw={400}>
                        {layerNames[layer.layer]}
                      </Table.Th>
                      <Table.Td ta="end">{format.count(layer.allowed)}</Table.Td>
                      <Table.Td ta="end">{format.count(layer.blocked)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ReportCard>
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
              <TopTable
                title={t('reports.sections.topCategories', 'Top categories')}
                items={data.topCategories}
                format={format}
              />
              <TopTable
                title={t('reports.sections.topApps', 'Top applications')}
                items={data.topApps}
                format={format}
              />
              <TopTable
                title={t('reports.sections.topDestinations', 'Top destinations')}
                items={data.topDestinations}
                format={format}
              />
              <TopTable
                title={t('reports.sections.topUsers', 'Top users')}
                items={data.topUsers}
                format={format}
              />
            </SimpleGrid>
          </>
        )}
      </ReportBody>
    </ReportPage>
  );
}
