import '@mantine/charts/styles.css';
import { AreaChart, LineChart } from '@mantine/charts';
import { Box, SimpleGrid, Text } from '@mantine/core';
import type { SitePerformance, SitePerformanceRange } from '@palisade/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatThroughput } from '../../../lib/throughput';
import { formatLatency, formatPercent, pointTimeFormatter, tickFormatter } from '../utils/format';
import { useMeasureLabels, useRangePhrases } from './labels';

/** One point as the charts read it: the time as a number, the measures as the server sent them (null: a gap). */
type ChartPoint = Omit<SitePerformance['series'][number], 'at'> & { at: number };

const CHART_HEIGHT = 180;

/** What every chart of the screen shares. */
function useChartBase(range: SitePerformanceRange) {
  const { i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const pointTime = pointTimeFormatter(locale);
  return {
    locale,
    props: {
      h: CHART_HEIGHT,
      dataKey: 'at',
      // A gateway not heard from in a point has no figure there: the line breaks rather than falling to zero.
      connectNulls: false,
      // The chart is an image to a screen reader (its figures are in the table beside it), so nothing in it
      // takes the focus: recharts' keyboard layer would make it an unnamed application.
      accessibilityLayer: false,
      withDots: true,
      dotProps: { r: 2, strokeWidth: 0 },
      activeDotProps: { r: 4, strokeWidth: 1 },
      curveType: 'linear' as const,
      gridAxis: 'xy' as const,
      xAxisProps: { tickFormatter: tickFormatter(range, locale), minTickGap: 24 },
      // The tooltip renders before any point is hovered, without a label.
      tooltipProps: {
        labelFormatter: (at: unknown) => (typeof at === 'number' ? pointTime(at) : ''),
      },
    },
  };
}

/** A chart under its visible title (the figure's caption). */
function ChartFigure({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="figure" m={0} miw={0}>
      <Text component="figcaption" size="sm" fw={500} mb="xs">
        {title}
      </Text>
      {children}
    </Box>
  );
}

/** Props of {@link SiteCharts}. */
export interface SiteChartsProps {
  site: SitePerformance;
  range: SitePerformanceRange;
}

/**
 * A site's series as three charts: latency (a line), throughput (an area) and loss with tunnel uptime (areas on
 * one 0–100 % scale). Colours come from the Mantine theme, so they follow the light and dark scheme; gaps where
 * the gateway was not heard from stay gaps. Each chart is an image with a name saying what it shows; the figures
 * themselves are in the site's data table for screen-reader users.
 */
export function SiteCharts({ site, range }: SiteChartsProps) {
  const { t } = useTranslation();
  const { locale, props } = useChartBase(range);
  const measures = useMeasureLabels();
  const phrase = useRangePhrases()[range];
  const lossUptime = t('sitePerformance.chart.lossUptime', 'Loss and tunnel uptime');
  const data: ChartPoint[] = site.series.map((point) => ({ ...point, at: Date.parse(point.at) }));
  const name = (measure: string) =>
    t(
      'sitePerformance.chart.name',
      'Chart: {{measure}} of {{site}} {{range}}. The figures are in the table below.',
      {
        measure,
        site: site.name,
        range: phrase,
      },
    );

  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
      <ChartFigure title={measures.latency}>
        <LineChart
          {...props}
          role="img"
          aria-label={name(measures.latency)}
          data={data}
          series={[{ name: 'latencyMs', label: measures.latency, color: 'blue.6' }]}
          valueFormatter={(value) => formatLatency(value, locale)}
          yAxisProps={{ width: 64 }}
        />
      </ChartFigure>
      <ChartFigure title={measures.throughput}>
        <AreaChart
          {...props}
          role="img"
          aria-label={name(measures.throughput)}
          data={data}
          series={[{ name: 'throughputBps', label: measures.throughput, color: 'grape.6' }]}
          valueFormatter={(value) => formatThroughput(value, locale)}
          yAxisProps={{ width: 84 }}
          fillOpacity={0.25}
        />
      </ChartFigure>
      <ChartFigure title={lossUptime}>
        <AreaChart
          {...props}
          role="img"
          aria-label={name(lossUptime)}
          data={data}
          series={[
            { name: 'uptimePercent', label: measures.uptime, color: 'teal.6' },
            { name: 'lossPercent', label: measures.loss, color: 'red.6' },
          ]}
          valueFormatter={(value) => formatPercent(value, locale)}
          yAxisProps={{ width: 56, domain: [0, 100] }}
          withLegend
          fillOpacity={0.2}
        />
      </ChartFigure>
    </SimpleGrid>
  );
}
