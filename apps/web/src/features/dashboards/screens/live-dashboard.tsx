import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { LiveTick } from '@palisade/contracts';
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BarList } from '../../../components/charts/bar-list';
import { DecisionDrillDown } from '../../../components/charts/decision-drill-down';
import { formatCount, useChartLocale } from '../../../components/charts/format';
import {
  OnlyRealSwitch,
  SimulatedBadge,
  useOnlyRealTraffic,
} from '../../../components/charts/simulated-badge';
import { EmbedShareButton } from '../../../components/embed/embed-share-button';
import { PageHeader } from '../../../components/ui/page-header';
import { useWorkingTenant } from '../../../lib/auth';
import { embedTarget } from '../../../lib/embed-links';
import { formatTime } from '../../../lib/format-time';
import { type LiveStatus, useLiveTelemetry } from '../api/live-telemetry';
import { KpiCards } from '../components/kpi-cards';
import { useDrill } from '../components/use-drill';

/** How much the live view keeps: a rolling five minutes. */
export const LIVE_WINDOW_MS = 5 * 60_000;
/** How many destinations the live list shows. */
const TOP_DESTINATIONS = 10;

/** The ticks of the window ending at the newest one, with `tick` added (ticks arrive in order, one a second). */
export function addTick(ticks: readonly LiveTick[], tick: LiveTick): LiveTick[] {
  const end = Date.parse(tick.at);
  return [
    ...ticks.filter((entry) => end - Date.parse(entry.at) < LIVE_WINDOW_MS && entry.at !== tick.at),
    tick,
  ];
}

/** The destinations of the window, most requests first: their requests summed, and the blocked ones. */
export function topDestinations(ticks: readonly LiveTick[], limit = TOP_DESTINATIONS) {
  const sums = new Map<string, { events: number; blocked: number }>();
  for (const tick of ticks) {
    for (const destination of tick.destinations) {
      const sum = sums.get(destination.value) ?? { events: 0, blocked: 0 };
      sum.events += destination.events;
      sum.blocked += destination.blocked;
      sums.set(destination.value, sum);
    }
  }
  return [...sums]
    .sort(([a, x], [b, y]) => y.events - x.events || a.localeCompare(b))
    .slice(0, limit)
    .map(([value, sum]) => ({
      key: value,
      label: value,
      allowed: Math.max(0, sum.events - sum.blocked),
      blocked: sum.blocked,
    }));
}

/** The status badge: live (green), paused while the tab is hidden, connecting or reconnecting. */
function StatusBadge({ status }: { status: LiveStatus }) {
  const { t } = useTranslation();
  const labels: Record<LiveStatus, string> = {
    live: t('dashboards.live.status.live', 'Live'),
    paused: t('dashboards.live.status.paused', 'Paused'),
    connecting: t('dashboards.live.status.connecting', 'Connecting…'),
    reconnecting: t('dashboards.live.status.reconnecting', 'Reconnecting…'),
  };
  const colors: Record<LiveStatus, string> = {
    live: 'green',
    paused: 'gray',
    connecting: 'blue',
    reconnecting: 'orange',
  };
  return (
    <Badge color={colors[status]} variant="light" size="lg" role="status" aria-live="polite">
      {labels[status]}
    </Badge>
  );
}

/** One chart of the window: a title, its unit, and the areas of the series named. */
function LiveChart({
  title,
  unit,
  data,
  series,
}: {
  title: string;
  unit: string;
  data: Record<string, number>[];
  series: { name: string; label: string; color: string }[];
}) {
  const { t } = useTranslation();
  const locale = useChartLocale();
  const headingId = useId();
  // A window of minutes: the ticks and the tooltip name the second.
  const timeWithSeconds = (at: number) => formatTime(at, locale, { seconds: true });
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap={2} mb="sm">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        <Text size="xs" c="dimmed">
          {unit}
        </Text>
      </Stack>
      <AreaChart
        h={200}
        role="img"
        aria-label={t('dashboards.live.chartName', 'Chart: {{title}}, {{unit}}.', {
          title,
          unit,
        })}
        data={data}
        dataKey="at"
        series={series}
        curveType="monotone"
        withDots={false}
        withLegend={series.length > 1}
        fillOpacity={0.25}
        gridAxis="y"
        valueFormatter={(value) => formatCount(value, locale)}
        xAxisProps={{ tickFormatter: timeWithSeconds, minTickGap: 40 }}
        yAxisProps={{ width: 56 }}
        tooltipProps={{
          labelFormatter: (at: unknown) => (typeof at === 'number' ? timeWithSeconds(at) : ''),
        }}
        tooltipAnimationDuration={0}
        areaProps={{ isAnimationActive: false }}
        areaChartProps={{ accessibilityLayer: false }}
      />
    </Card>
  );
}

/**
 * `/live` (issue 12): what the gateways report, second by second — decisions, blocks and connections per second
 * over a rolling five minutes, and the destinations with the most requests in that window, from the server's
 * event stream. The stream is closed while the tab is hidden ("Paused") and opened again when it is shown; the
 * screen never polls. A destination opens its decisions of the window.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const locale = useChartLocale();
  const [ticks, setTicks] = useState<LiveTick[]>([]);
  const real = useOnlyRealTraffic();
  const onlyReal = real.onlyReal;
  const setOnlyReal = (value: boolean) => {
    // Another stream: the window starts again.
    setTicks([]);
    real.setOnlyReal(value);
  };
  const onTick = useCallback((tick: LiveTick) => setTicks((current) => addTick(current, tick)), []);
  const status = useLiveTelemetry(tenant, onTick, onlyReal);
  const latest = ticks.at(-1);
  const windowRange = latest
    ? {
        from: new Date(Date.parse(latest.at) - LIVE_WINDOW_MS).toISOString(),
        to: new Date(Date.parse(latest.at) + 1000).toISOString(),
        ...(onlyReal ? { source: 'gateway' as const } : {}),
      }
    : null;
  const drill = useDrill(windowRange);
  const perSecond = t('dashboards.units.perSecond', 'per second, the latest second');
  const count = (n: number) => formatCount(n, locale);
  const data = ticks.map((tick) => ({
    at: Date.parse(tick.at),
    decisions: tick.decisions,
    blocked: tick.blocked,
    connections: tick.connections,
  }));

  return (
    <>
      <PageHeader
        actions={<EmbedShareButton targets={[embedTarget('global')]} />}
        title={t('dashboards.live.title', 'Live traffic')}
        description={t(
          'dashboards.live.description',
          'What the gateways report, second by second, over the last 5 minutes. Paused while this tab is in the background.',
        )}
        badge={
          <Group gap="xs">
            <StatusBadge status={status} />
            <SimulatedBadge count={ticks.reduce((n, tick) => n + (tick.simulated ?? 0), 0)} />
          </Group>
        }
      />
      <OnlyRealSwitch mb="md" checked={onlyReal} onChange={setOnlyReal} />
      <Stack gap="md">
        <KpiCards
          items={[
            {
              key: 'decisions',
              label: t('dashboards.live.decisions', 'Decisions'),
              value: latest ? count(latest.decisions) : '—',
              unit: perSecond,
            },
            {
              key: 'blocked',
              label: t('dashboards.live.blocked', 'Blocks'),
              value: latest ? count(latest.blocked) : '—',
              unit: perSecond,
            },
            {
              key: 'connections',
              label: t('dashboards.live.connections', 'Connections'),
              value: latest ? count(latest.connections) : '—',
              unit: perSecond,
            },
          ]}
        />
        {ticks.length === 0 ? (
          <Text c="dimmed">
            {status === 'paused'
              ? t('dashboards.live.pausedHint', 'Paused while this tab is in the background.')
              : t('dashboards.live.waiting', 'Waiting for the first second of traffic…')}
          </Text>
        ) : null}
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <LiveChart
            title={t('dashboards.live.requestsChart', 'Decisions and blocks, last 5 minutes')}
            unit={t('dashboards.units.requestsPerSecond', 'Requests per second')}
            data={data}
            series={[
              { name: 'decisions', label: t('dashboards.live.decisions', 'Decisions'), color: 'blue.6' },
              { name: 'blocked', label: t('dashboards.live.blocked', 'Blocks'), color: 'red.6' },
            ]}
          />
          <LiveChart
            title={t('dashboards.live.connectionsChart', 'Connections, last 5 minutes')}
            unit={t('dashboards.units.connectionsPerSecond', 'Connection events per second')}
            data={data}
            series={[
              {
                name: 'connections',
                label: t('dashboards.live.connections', 'Connections'),
                color: 'grape.6',
              },
            ]}
          />
        </SimpleGrid>
        <BarList
          title={t('dashboards.live.destinations', 'Top destinations')}
          unit={t('dashboards.units.requestsLastFiveMinutes', 'Requests in the last 5 minutes')}
          items={topDestinations(ticks)}
          onSelect={(item, verdict) => drill.openItem('destination', item, verdict)}
          emptyText={t('dashboards.live.noDestinations', 'No requests yet.')}
        />
      </Stack>
      <DecisionDrillDown tenant={tenant} drill={drill.drill} onClose={drill.close} />
    </>
  );
}
