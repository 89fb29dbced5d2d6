import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { SimpleGrid, Table, Text } from '@mantine/core';
import type { TrendMetric, WeeklyInsightsReport } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { useWeeklyInsightsReport } from '../api/get-reports';
import { KpiGrid } from '../components/kpi-grid';
import { ReportBody } from '../components/report-body';
import { ReportCard } from '../components/report-card';
import { ReportPage } from '../components/report-page';
import { TopTable } from '../components/top-table';
import { type ReportFormat, useReportFormat } from '../utils/format';

function metricNames(t: TFunction): Record<TrendMetric, string> {
  return {
    decisions: t('reports.kpis.decisions', 'Requests'),
    allowed: t('reports.kpis.allowed', 'Allowed'),
    blocked: t('reports.kpis.blocked', 'Blocked'),
    threats: t('reports.kpis.threats', 'Threats'),
    connections: t('reports.kpis.connections', 'Connections'),
    users: t('reports.kpis.activeUsers', 'Active users'),
    devices: t('reports.kpis.activeDevices', 'Active devices'),
    bytes: t('reports.kpis.bytes', 'Data'),
  };
}

/** Blocked requests per day of this week beside the same weekday of the week before. */
function BlockedPerDay({ report, format }: { report: WeeklyInsightsReport; format: ReportFormat }) {
  const { t } = useTranslation();
  const current = report.days.filter((d) => d.week === 'current');
  const previous = report.days.filter((d) => d.week === 'previous');
  const data = current.map((d, i) => ({
    day: format.dateFields(`${d.day}T00:00:00Z`, {
      weekday: 'short',
      day: '2-digit',
      month: '2-digit',
      timeZone: 'UTC',
    }),
    current: d.blocked,
    previous: previous[i]?.blocked ?? 0,
  }));
  const title = t('reports.sections.blockedPerDay', 'Blocked requests per day');
  return (
    <ReportCard title={title}>
      <BarChart
        h={200}
        role="img"
        aria-label={t(
          'reports.weekly.chartLabel',
          '{{title}}: {{current}} this week, {{previous}} the week before',
          {
            title,
            current: format.count(current.reduce((n, d) => n + d.blocked, 0)),
            previous: format.count(previous.reduce((n, d) => n + d.blocked, 0)),
          },
        )}
        data={data}
        dataKey="day"
        series={[
          { name: 'previous', label: t('reports.weekly.previousWeek', 'Week before'), color: 'gray.5' },
          { name: 'current', label: t('reports.weekly.thisWeek', 'This week'), color: 'red.6' },
        ]}
        withLegend
        valueFormatter={format.count}
        gridAxis="y"
        tooltipAnimationDuration={0}
        barProps={{ isAnimationActive: false }}
      />
    </ReportCard>
  );
}

/**
 * `/reports/weekly-sase-insights` (issue 12): the last 7 days against the 7 before — every figure with its
 * change, blocked requests per day, the top blocked destinations and categories, and private access per site.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const format = useReportFormat();
  const report = useWeeklyInsightsReport(tenant);
  const names = metricNames(t);
  const value = (metric: TrendMetric, n: number) => (metric === 'bytes' ? format.bytes(n) : format.count(n));

  return (
    <ReportPage
      kind="weekly-sase-insights"
      title={t('reports.weekly.title', 'Weekly SASE insights')}
      description={t(
        'reports.weekly.description',
        'This week against the week before: what changed in traffic, blocks and threats, and who used private access.',
      )}
    >
      <ReportBody query={report}>
        {(data) => (
          <>
            <KpiGrid
              label={t('reports.sections.keyFigures', 'Key figures')}
              items={data.trends.map((trend) => ({
                key: trend.metric,
                label: names[trend.metric],
                value: value(trend.metric, trend.current),
                note: t('reports.weekly.change', '{{change}} against the week before', {
                  change: format.percent(trend.deltaPercent),
                }),
              }))}
            />
            <ReportCard title={t('reports.sections.trends', 'Trends against the week before')}>
              <Table striped aria-label={t('reports.sections.trends', 'Trends against the week before')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('reports.columns.metric', 'Figure')}</Table.Th>
                    <Table.Th scope="col" ta="end">
                      {t('reports.weekly.thisWeek', 'This week')}
                    </Table.Th>
                    <Table.Th scope="col" ta="end">
                      {t('reports.weekly.previousWeek', 'Week before')}
                    </Table.Th>
                    <Table.Th scope="col" ta="end">
                      {t('reports.columns.change', 'Change')}
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.trends.map((trend) => (
                    <Table.Tr key={trend.metric}>
                      <Table.Th scope="row" fw={400}>
                        {names[trend.metric]}
                      </Table.Th>
                      <Table.Td ta="end">{value(trend.metric, trend.current)}</Table.Td>
                      <Table.Td ta="end">{value(trend.metric, trend.previous)}</Table.Td>
                      <Table.Td ta="end">{format.percent(trend.deltaPercent)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ReportCard>
            <BlockedPerDay report={data} format={format} />
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
              <TopTable
                title={t('reports.sections.topBlockedDestinations', 'Top blocked destinations')}
                items={data.topBlockedDestinations}
                format={format}
              />
              <TopTable
                title={t('reports.sections.topBlockedCategories', 'Top blocked categories')}
                items={data.topBlockedCategories}
                format={format}
              />
            </SimpleGrid>
            <ReportCard title={t('reports.sections.privateAccess', 'Private access per site')}>
              {data.privateAccess.length === 0 ? (
                <Text c="dimmed" size="sm">
                  {t('reports.empty', 'Nothing in this period.')}
                </Text>
              ) : (
                <Table striped aria-label={t('reports.sections.privateAccess', 'Private access per site')}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t('reports.columns.site', 'Site')}</Table.Th>
                      <Table.Th scope="col" ta="end">
                        {t('reports.columns.users', 'Users')}
                      </Table.Th>
                      <Table.Th scope="col" ta="end">
                        {t('reports.columns.devices', 'Devices')}
                      </Table.Th>
                      <Table.Th scope="col" ta="end">
                        {t('reports.columns.sessions', 'Sessions')}
                      </Table.Th>
                      <Table.Th scope="col" ta="end">
                        {t('reports.columns.duration', 'Duration')}
                      </Table.Th>
                      <Table.Th scope="col" ta="end">
                        {t('reports.columns.data', 'Data')}
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.privateAccess.map((site) => (
                      <Table.Tr key={site.gateway.id}>
                        <Table.Th scope="row" fw={400}>
                          {site.gateway.name}
                        </Table.Th>
                        <Table.Td ta="end">{format.count(site.users)}</Table.Td>
                        <Table.Td ta="end">{format.count(site.devices)}</Table.Td>
                        <Table.Td ta="end">{format.count(site.sessions)}</Table.Td>
                        <Table.Td ta="end">{format.duration(site.durationMs)}</Table.Td>
                        <Table.Td ta="end">{format.bytes(site.bytes)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </ReportCard>
          </>
        )}
      </ReportBody>
    </ReportPage>
  );
}
