import { Group, SegmentedControl, SimpleGrid, Table, Text } from '@mantine/core';
import type { DsbPeriod } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  OnlyRealSwitch,
  SimulatedBadge,
  useOnlyRealTraffic,
} from '../../../components/charts/simulated-badge';
import { useWorkingTenant } from '../../../lib/auth';
import { useDsbReport } from '../api/get-reports';
import { KpiGrid } from '../components/kpi-grid';
import { ReportBody } from '../components/report-body';
import { ReportCard } from '../components/report-card';
import { ReportPage } from '../components/report-page';
import { RequestsChart } from '../components/requests-chart';
import { TopTable } from '../components/top-table';
import { totalsKpis } from '../components/totals-kpis';
import { useReportFormat } from '../utils/format';

/**
 * `/reports/dsb` (issue 12): the daily security brief — the last 24 hours (or 7 days) in key figures, requests
 * over time, the top threats, blocked destinations and categories, and the devices enrolled in that time. Like
 * the dashboards, it marks figures that include simulated traffic and can leave it out (`?source=gateway`), the
 * PDF too.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const format = useReportFormat();
  const [period, setPeriod] = useState<DsbPeriod>('24h');
  const { onlyReal, setOnlyReal, source } = useOnlyRealTraffic();
  const report = useDsbReport(tenant, { period, ...(source ? { source } : {}) });

  return (
    <ReportPage
      kind="dsb"
      title={t('reports.dsb.title', 'Daily security brief')}
      description={t(
        'reports.dsb.description',
        'What the gateways blocked, the threats they met and the devices that joined, at a glance.',
      )}
      pdfParams={{ period, source }}
      controls={
        <Group align="center" gap="lg" wrap="wrap">
          <SegmentedControl
            aria-label={t('reports.dsb.period', 'Period')}
            value={period}
            onChange={(value) => setPeriod(value as DsbPeriod)}
            data={[
              { value: '24h', label: t('reports.dsb.last24h', 'Last 24 hours') },
              { value: '7d', label: t('reports.dsb.last7d', 'Last 7 days') },
            ]}
            w="fit-content"
          />
          <OnlyRealSwitch checked={onlyReal} onChange={setOnlyReal} />
        </Group>
      }
    >
      <ReportBody query={report}>
        {(data) => (
          <>
            <SimulatedBadge count={data.kpis.simulated ?? 0} />
            <KpiGrid
              label={t('reports.sections.keyFigures', 'Key figures')}
              items={[
                ...totalsKpis(data.kpis, t, format),
                {
                  key: 'newDevices',
                  label: t('reports.kpis.newDevices', 'New devices'),
                  value: format.count(data.kpis.newDevices),
                },
              ]}
            />
            <RequestsChart series={data.series} format={format} />
            <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
              <TopTable
                title={t('reports.sections.topThreats', 'Top threats')}
                items={data.topThreats}
                format={format}
              />
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
            <ReportCard title={t('reports.sections.newDevices', 'Devices enrolled in this period')}>
              {data.newDevices.length === 0 ? (
                <Text c="dimmed" size="sm">
                  {t('reports.empty', 'Nothing in this period.')}
                </Text>
              ) : (
                <Table
                  striped
                  aria-label={t('reports.sections.newDevices', 'Devices enrolled in this period')}
                >
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t('reports.columns.device', 'Device')}</Table.Th>
                      <Table.Th scope="col">{t('reports.columns.os', 'Operating system')}</Table.Th>
                      <Table.Th scope="col">{t('reports.columns.user', 'User')}</Table.Th>
                      <Table.Th scope="col">{t('reports.columns.enrolled', 'Enrolled')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.newDevices.map((device) => (
                      <Table.Tr key={device.id}>
                        <Table.Th scope="row" fw={400}>
                          {device.name}
                        </Table.Th>
                        <Table.Td>{device.os}</Table.Td>
                        <Table.Td>{device.username ?? '–'}</Table.Td>
                        <Table.Td>{format.dateTime(device.enrolledAt)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              {data.kpis.newDevices > data.newDevices.length ? (
                <Text size="xs" c="dimmed" mt="xs">
                  {t('reports.more', '… and {{count, number}} more', {
                    count: data.kpis.newDevices - data.newDevices.length,
                  })}
                </Text>
              ) : null}
            </ReportCard>
          </>
        )}
      </ReportBody>
    </ReportPage>
  );
}
