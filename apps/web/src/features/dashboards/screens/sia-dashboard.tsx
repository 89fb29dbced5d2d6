import { Grid, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DecisionDrillDown } from '../../../components/charts/decision-drill-down';
import { SeriesChart } from '../../../components/charts/series-chart';
import { EmbedShareButton } from '../../../components/embed/embed-share-button';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useWorkingTenant } from '../../../lib/auth';
import { embedTarget } from '../../../lib/embed-links';
import { useTelemetryOverview } from '../api/get-telemetry';
import { KpiCards } from '../components/kpi-cards';
import { LayerSplit } from '../components/layer-split';
import { useOverviewKpis } from '../components/overview-kpis';
import { RangePicker, useDashboardRange } from '../components/range-picker';
import { TopList } from '../components/top-list';
import { useDrill } from '../components/use-drill';

/**
 * `/main-dashboards/SIADashboard` (issue 12): secure internet access over a time range kept in the address — the
 * decisions, blocks, threat hits, users, devices and data of the range, the allowed and blocked requests over
 * time, the split per policy layer and the top categories, applications, destinations, countries and threats.
 * Every bar and segment opens the decisions it stands for in a drawer.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const range = useDashboardRange();
  const overview = useTelemetryOverview(tenant, range.apiRange);
  const toKpis = useOverviewKpis();
  const drill = useDrill(range.apiRange);

  const renderOverview = () => {
    if (!range.apiRange) return null;
    if (overview.isPending) return <LoadingState label={t('dashboards.loading', 'Loading the dashboard…')} />;
    if (overview.isError && !overview.data) {
      return <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />;
    }
    const data = overview.data;
    if (!data) return null;
    return (
      <>
        {overview.isError ? (
          <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />
        ) : null}
        <KpiCards
          items={toKpis(data.totals, ['decisions', 'blocked', 'threats', 'users', 'devices', 'bytes'])}
        />
        <Grid gap="md">
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <SeriesChart
              title={t('dashboards.sia.series', 'Allowed and blocked requests over time')}
              overview={data}
              onSelect={drill.openBucket}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <LayerSplit layers={data.layers} onSelect={drill.openLayer} />
          </Grid.Col>
        </Grid>
      </>
    );
  };

  return (
    <>
      <PageHeader
        actions={
          <EmbedShareButton targets={[embedTarget('agentless', { tenant }), embedTarget('5g', { tenant })]} />
        }
        title={t('dashboards.sia.title', 'Secure internet access')}
        description={t(
          'dashboards.sia.description',
          'What the policy decided for the internet traffic of your users and devices. Choose any bar to see its events.',
        )}
      />
      <RangePicker range={range} simulated={overview.data?.totals.simulated ?? 0} />
      <Stack gap="md">
        {renderOverview()}
        {range.apiRange ? (
          <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="category"
              title={t('dashboards.top.categories', 'Top categories')}
              onSelect={drill.openItem}
            />
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="app"
              title={t('dashboards.top.apps', 'Top applications')}
              onSelect={drill.openItem}
            />
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="destination"
              title={t('dashboards.top.destinations', 'Top destinations')}
              onSelect={drill.openItem}
            />
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="country"
              title={t('dashboards.top.countries', 'Top countries')}
              onSelect={drill.openItem}
            />
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="threat"
              title={t('dashboards.top.threats', 'Top threats')}
              onSelect={drill.openItem}
            />
          </SimpleGrid>
        ) : null}
      </Stack>
      <DecisionDrillDown tenant={tenant} drill={drill.drill} onClose={drill.close} />
    </>
  );
}
