import { SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DecisionDrillDown } from '../../../components/charts/decision-drill-down';
import { EmbedShareButton } from '../../../components/embed/embed-share-button';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useWorkingTenant } from '../../../lib/auth';
import { embedTarget } from '../../../lib/embed-links';
import { useTelemetryOverview } from '../api/get-telemetry';
import { LayerSplit } from '../components/layer-split';
import { RangePicker, useDashboardRange } from '../components/range-picker';
import { TopList } from '../components/top-list';
import { useDrill } from '../components/use-drill';

/**
 * `/main-dashboards/analytics` (issue 12): who and what the traffic of a time range came from and went through —
 * the top users, devices, rules and gateways, and the split per policy layer. Every bar and segment opens the
 * decisions it stands for.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const range = useDashboardRange();
  const overview = useTelemetryOverview(tenant, range.apiRange);
  const drill = useDrill(range.apiRange);

  const renderLayers = () => {
    if (overview.isPending) return <LoadingState label={t('dashboards.loading', 'Loading the dashboard…')} />;
    if (!overview.data) return <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />;
    return <LayerSplit layers={overview.data.layers} onSelect={drill.openLayer} />;
  };

  return (
    <>
      <PageHeader
        actions={<EmbedShareButton targets={[embedTarget('diagnostics', { tenant })]} />}
        title={t('dashboards.analytics.title', 'Traffic analytics')}
        description={t(
          'dashboards.analytics.description',
          'The users, devices, rules and gateways with the most requests. Choose any bar to see its events.',
        )}
      />
      <RangePicker range={range} simulated={overview.data?.totals.simulated ?? 0} />
      {range.apiRange ? (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="user"
              title={t('dashboards.top.users', 'Top users')}
              onSelect={drill.openItem}
            />
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="device"
              title={t('dashboards.top.devices', 'Top devices')}
              onSelect={drill.openItem}
            />
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="rule"
              title={t('dashboards.top.rules', 'Top rules')}
              onSelect={drill.openItem}
            />
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="gateway"
              title={t('dashboards.top.gateways', 'Top gateways')}
              onSelect={drill.openItem}
            />
          </SimpleGrid>
          {renderLayers()}
        </Stack>
      ) : null}
      <DecisionDrillDown tenant={tenant} drill={drill.drill} onClose={drill.close} />
    </>
  );
}
