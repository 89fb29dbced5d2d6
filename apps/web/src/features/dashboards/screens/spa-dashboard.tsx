import { Anchor, Card, Stack, Table, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatBytes, formatCount, useChartLocale } from '../../../components/charts/format';
import { EmbedShareButton } from '../../../components/embed/embed-share-button';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useWorkingTenant } from '../../../lib/auth';
import { embedTarget } from '../../../lib/embed-links';
import { useFormatters } from '../../../lib/format-time';
import type { ApiRange } from '../api/dashboards-keys';
import { usePrivateAccessSummary } from '../api/get-telemetry';
import { KpiCards } from '../components/kpi-cards';
import { RangePicker, useDashboardRange } from '../components/range-picker';
import { SessionsChart } from '../components/sessions-chart';
import { isoToLocal } from '../utils/range';

/**
 * The connection events of a gateway over a range, as the connection-status screen reads its address: a custom
 * range in local time to the minute (the end rounded up, so it covers the range).
 */
export function connectionEventsHref(gatewayId: string, range: ApiRange): string {
  const params = new URLSearchParams({
    range: 'custom',
    gatewayId,
    from: isoToLocal(range.from),
    to: isoToLocal(range.to, true),
  });
  return `/events/connection-status?${params.toString()}`;
}

/**
 * `/main-dashboards/SPADashboard` (issue 12): secure private access over a time range — per site gateway the
 * users and devices connected, the sessions, their total duration and the data, with the sessions per site as a
 * chart. Each site leads to its connection events over the same range.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const locale = useChartLocale();
  const navigate = useNavigate();
  const range = useDashboardRange();
  const summary = usePrivateAccessSummary(tenant, range.apiRange);
  const formatDuration = useFormatters().duration;
  const tableId = useId();
  const count = (n: number) => formatCount(n, locale);

  const renderBody = () => {
    const apiRange = range.apiRange;
    if (!apiRange) return null;
    if (summary.isPending) return <LoadingState label={t('dashboards.loading', 'Loading the dashboard…')} />;
    if (!summary.data) return <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />;
    const { sites } = summary.data;
    if (sites.length === 0) {
      return (
        <EmptyState
          message={t(
            'dashboards.spa.empty',
            'No site gateway had private access sessions in this time range.',
          )}
        />
      );
    }
    const sum = (pick: (site: (typeof sites)[number]) => number) =>
      sites.reduce((acc, site) => acc + pick(site), 0);
    const totalBytes = sum((site) => site.bytes);
    const rows = sites.map((site) => ({ ...site, href: connectionEventsHref(site.gateway.id, apiRange) }));
    return (
      <Stack gap="md">
        {summary.isError ? <ErrorState error={summary.error} onRetry={() => void summary.refetch()} /> : null}
        <KpiCards
          items={[
            {
              key: 'sessions',
              label: t('dashboards.spa.sessions', 'Sessions'),
              value: count(sum((site) => site.sessions)),
              unit: t('dashboards.units.sessions', 'sessions'),
            },
            {
              key: 'duration',
              label: t('dashboards.spa.duration', 'Total duration'),
              value: formatDuration(sum((site) => site.durationMs)),
              unit: t('dashboards.units.duration', 'days, hours, minutes, seconds'),
            },
            {
              key: 'bytes',
              label: t('dashboards.kpi.bytes', 'Data'),
              value: formatBytes(totalBytes, locale),
              unit: t('dashboards.units.bytesExact', '{{value}} bytes', { value: count(totalBytes) }),
            },
            {
              key: 'sites',
              label: t('dashboards.spa.sites', 'Site gateways'),
              value: count(sites.length),
              unit: t('dashboards.units.sites', 'sites with sessions'),
            },
          ]}
        />
        <SessionsChart
          sites={rows.map((site) => ({
            id: site.gateway.id,
            name: site.gateway.name,
            sessions: site.sessions,
            href: site.href,
          }))}
          onSelect={(site) => void navigate(site.href)}
        />
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={tableId}>
          <Title order={2} size="h4" id={tableId} mb="sm">
            {t('dashboards.spa.table', 'Private access per site')}
          </Title>
          <Table.ScrollContainer minWidth={760}>
            <Table striped highlightOnHover aria-labelledby={tableId}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('dashboards.spa.site', 'Site gateway')}</Table.Th>
                  <Table.Th scope="col" ta="end">
                    {t('dashboards.spa.users', 'Users')}
                  </Table.Th>
                  <Table.Th scope="col" ta="end">
                    {t('dashboards.spa.devices', 'Devices')}
                  </Table.Th>
                  <Table.Th scope="col" ta="end">
                    {t('dashboards.spa.sessions', 'Sessions')}
                  </Table.Th>
                  <Table.Th scope="col" ta="end">
                    {t('dashboards.spa.duration', 'Total duration')}
                  </Table.Th>
                  <Table.Th scope="col" ta="end">
                    {t('dashboards.kpi.bytes', 'Data')}
                  </Table.Th>
                  <Table.Th scope="col">{t('dashboards.spa.events', 'Events')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((site) => (
                  <Table.Tr key={site.gateway.id}>
                    <Table.Th scope="row" fw={500}>
                      {site.gateway.name}
                    </Table.Th>
                    <Table.Td ta="end">{count(site.users)}</Table.Td>
                    <Table.Td ta="end">{count(site.devices)}</Table.Td>
                    <Table.Td ta="end">{count(site.sessions)}</Table.Td>
                    <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                      {formatDuration(site.durationMs)}
                    </Table.Td>
                    <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                      <Text
                        span
                        size="sm"
                        title={t('dashboards.units.bytesExact', '{{value}} bytes', {
                          value: count(site.bytes),
                        })}
                      >
                        {formatBytes(site.bytes, locale)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={site.href} size="sm">
                        {t('dashboards.spa.connectionEvents', 'Connection events of {{site}}', {
                          site: site.gateway.name,
                        })}
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      </Stack>
    );
  };

  return (
    <>
      <PageHeader
        actions={<EmbedShareButton targets={[embedTarget('spa', { tenant })]} />}
        title={t('dashboards.spa.title', 'Secure private access')}
        description={t(
          'dashboards.spa.description',
          'Who connected to your sites through each site gateway, how often and for how long.',
        )}
      />
      <RangePicker range={range} />
      {renderBody()}
    </>
  );
}
