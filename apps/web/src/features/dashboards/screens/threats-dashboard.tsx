import { Card, SimpleGrid, Stack } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { DecisionDrillDown } from '../../../components/charts/decision-drill-down';
import { SeriesChart } from '../../../components/charts/series-chart';
import { EmbedShareButton } from '../../../components/embed/embed-share-button';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useSession, useWorkingTenant } from '../../../lib/auth';
import { embedTarget, workingTenantKind } from '../../../lib/embed-links';
import { useTelemetryOverview, useTelemetryTop } from '../api/get-telemetry';
import { KpiCards } from '../components/kpi-cards';
import { useOverviewKpis } from '../components/overview-kpis';
import { RangePicker, useDashboardRange } from '../components/range-picker';
import { TopList, useTopItems } from '../components/top-list';
import { useDrill } from '../components/use-drill';

// The map, its projection and the bundled world topology are a chunk of their own, fetched with this screen.
const WorldMap = lazy(() => import('../components/world-map'));

/** How many countries the map asks for: every country with blocked requests, in practice. */
const MAP_COUNTRIES = 100;

/**
 * `/main-dashboards/threats` (issue 12): what threat intelligence and the policy blocked over a time range — the
 * blocked requests over time, the top threats and blocked destinations, and the blocked requests by destination
 * country on a world map with the same figures as a table. Every bar, segment and country opens its decisions.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const { session } = useSession();
  const range = useDashboardRange();
  const overview = useTelemetryOverview(tenant, range.apiRange);
  const countries = useTelemetryTop(
    tenant,
    range.apiRange
      ? { ...range.apiRange, dimension: 'country', decision: 'block', limit: MAP_COUNTRIES }
      : null,
  );
  const toKpis = useOverviewKpis();
  const toItems = useTopItems();
  const drill = useDrill(range.apiRange);
  const mapTitle = t('dashboards.threats.map', 'Blocked countries');

  const renderOverview = () => {
    if (!range.apiRange) return null;
    if (overview.isPending) return <LoadingState label={t('dashboards.loading', 'Loading the dashboard…')} />;
    if (!overview.data) return <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />;
    return (
      <>
        {overview.isError ? (
          <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />
        ) : null}
        <KpiCards items={toKpis(overview.data.totals, ['threats', 'blocked', 'decisions'])} />
        <SeriesChart
          title={t('dashboards.threats.series', 'Blocked requests over time')}
          overview={overview.data}
          verdicts={['blocked']}
          onSelect={drill.openBucket}
        />
      </>
    );
  };

  const renderMap = () => {
    if (!range.apiRange) return null;
    if (countries.isPending) return <LoadingState label={t('dashboards.map.loading', 'Loading the map…')} />;
    if (!countries.data)
      return <ErrorState error={countries.error} onRetry={() => void countries.refetch()} />;
    const items = toItems(countries.data).map((item) => ({
      code: item.key,
      name: item.label,
      blocked: item.blocked,
    }));
    return (
      <Suspense
        fallback={
          <Card withBorder radius="md" padding="lg">
            <LoadingState label={t('dashboards.map.loading', 'Loading the map…')} />
          </Card>
        }
      >
        <WorldMap
          title={mapTitle}
          countries={items.filter((item) => item.blocked > 0)}
          onSelect={(country) =>
            drill.openItem(
              'country',
              { key: country.code, label: country.name, allowed: 0, blocked: country.blocked },
              'blocked',
            )
          }
        />
      </Suspense>
    );
  };

  return (
    <>
      <PageHeader
        actions={
          <EmbedShareButton
            targets={[
              embedTarget('intrusion-detection', { tenant }),
              embedTarget('xdr', { tenant, tenantType: workingTenantKind(session, tenant) }),
              embedTarget('incident-response', { tenant }),
            ]}
          />
        }
        title={t('dashboards.threats.title', 'Threats')}
        description={t(
          'dashboards.threats.description',
          'Requests blocked by threat intelligence and the policy: when, to what and where. Choose any bar or country to see its events.',
        )}
      />
      <RangePicker range={range} simulated={overview.data?.totals.simulated ?? 0} />
      <Stack gap="md">
        {renderOverview()}
        {range.apiRange ? (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="threat"
              decision="block"
              title={t('dashboards.top.threats', 'Top threats')}
              onSelect={drill.openItem}
            />
            <TopList
              tenant={tenant}
              range={range.apiRange}
              dimension="destination"
              decision="block"
              title={t('dashboards.threats.destinations', 'Top blocked destinations')}
              onSelect={drill.openItem}
            />
          </SimpleGrid>
        ) : null}
        {renderMap()}
      </Stack>
      <DecisionDrillDown tenant={tenant} drill={drill.drill} onClose={drill.close} />
    </>
  );
}
