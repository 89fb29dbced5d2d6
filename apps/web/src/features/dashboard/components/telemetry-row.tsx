import { Grid, Group, Stack, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BarList } from '../../../components/charts/bar-list';
import { DecisionDrillDown } from '../../../components/charts/decision-drill-down';
import { type DecisionDrill, VERDICT_DECISION } from '../../../components/charts/drill-down';
import { bucketTimeFormatter, useChartLocale } from '../../../components/charts/format';
import { useDimensionLabels, useVerdictLabels } from '../../../components/charts/labels';
import { SeriesChart } from '../../../components/charts/series-chart';
import { SimulatedBadge } from '../../../components/charts/simulated-badge';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { last24Hours, TOP_BLOCKED_CATEGORIES, useTelemetryRow } from '../api/get-telemetry';

/**
 * The SASE dashboard's telemetry: the allowed and blocked requests of the last 24 hours and the categories
 * blocked most, each bar and segment opening its decisions in a drawer. Its own chunk (with the charts), so the
 * counts above it show without waiting for the chart library.
 */
export default function TelemetryRow({ tenant }: { tenant: string }) {
  const { t } = useTranslation();
  const locale = useChartLocale();
  const headingId = useId();
  const [range] = useState(() => last24Hours(Date.now()));
  const { overview, categories } = useTelemetryRow(tenant, range);
  const [drill, setDrill] = useState<DecisionDrill | null>(null);
  const verdicts = useVerdictLabels();
  const dimensions = useDimensionLabels();
  const formatTime = bucketTimeFormatter(locale, false);

  const renderSeries = () => {
    if (overview.isPending)
      return <LoadingState label={t('dashboards.loadingChart', 'Loading the chart…')} />;
    if (!overview.data) return <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />;
    return (
      <SeriesChart
        title={t('dashboards.sase.series', 'Allowed and blocked requests')}
        headingOrder={3}
        height={180}
        overview={overview.data}
        onSelect={(selection) =>
          setDrill({
            title: t('dashboards.drill.titleBucket', '{{verdict}} from {{time}}', {
              verdict: verdicts[selection.verdict],
              time: formatTime(selection.from),
            }),
            filters: {
              from: selection.from,
              to: selection.to,
              decision: VERDICT_DECISION[selection.verdict],
            },
          })
        }
      />
    );
  };

  const renderCategories = () => {
    if (categories.isPending)
      return <LoadingState label={t('dashboards.loadingChart', 'Loading the chart…')} />;
    if (!categories.data)
      return <ErrorState error={categories.error} onRetry={() => void categories.refetch()} />;
    return (
      <BarList
        title={t('dashboards.sase.categories', 'Top {{limit, number}} blocked categories', {
          limit: TOP_BLOCKED_CATEGORIES,
        })}
        headingOrder={3}
        unit={t('dashboards.units.blockedLast24h', 'Blocked requests in the last 24 hours')}
        items={categories.data.items.map((item) => ({
          key: item.value,
          label: item.label,
          allowed: item.allowed,
          blocked: item.blocked,
        }))}
        verdicts={['blocked']}
        onSelect={(item) =>
          setDrill({
            title: t('dashboards.drill.titleVerdict', '{{kind}} {{value}}: {{verdict}}', {
              kind: dimensions.category,
              value: item.label,
              verdict: verdicts.blocked,
            }),
            filters: { ...range, category: item.key, decision: 'block' },
          })
        }
        emptyText={t('dashboards.sase.noBlocked', 'Nothing blocked in the last 24 hours.')}
      />
    );
  };

  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm" mb="xl">
      <div>
        <Group gap="sm">
          <Title order={2} size="h4" id={headingId}>
            {t('dashboards.sase.title', 'Traffic in the last 24 hours')}
          </Title>
          <SimulatedBadge count={overview.data?.totals.simulated ?? 0} />
        </Group>
        <Text size="sm" c="dimmed">
          {t('dashboards.sase.hint', 'Choose a bar to see its events.')}
        </Text>
      </div>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>{renderSeries()}</Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>{renderCategories()}</Grid.Col>
      </Grid>
      <DecisionDrillDown tenant={tenant} drill={drill} onClose={() => setDrill(null)} />
    </Stack>
  );
}
