import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Box, Button, Card, Group, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import type { SeriesPoint, TelemetryOverview } from '@palisade/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VERDICT_COLORS, type Verdict } from './bar-list';
import { bucketTimeFormatter, formatCount, useChartLocale } from './format';
import { useVerdictLabels } from './labels';

const BUCKET_MS: Record<TelemetryOverview['bucket'], number> = { minute: 60_000, hour: 3_600_000 };
const BOTH: readonly Verdict[] = ['allowed', 'blocked'];

/** One bar of the series as its drill-down sees it: the bucket's start and end, and the verdict clicked. */
export interface SeriesSelection {
  from: string;
  to: string;
  verdict: Verdict;
}

/** Props of {@link SeriesChart}. */
export interface SeriesChartProps {
  title: string;
  headingOrder?: 2 | 3 | 4;
  /** The overview's series, bucket and range. */
  overview: Pick<TelemetryOverview, 'series' | 'bucket' | 'from' | 'to'>;
  /** The verdicts stacked, bottom first; both by default (the threat view shows the blocked ones only). */
  verdicts?: readonly Verdict[];
  onSelect: (selection: SeriesSelection) => void;
  height?: number;
}

/** The translated unit of a series: requests per minute or per hour, as the overview's bucket says. */
export function useSeriesUnit(bucket: TelemetryOverview['bucket']): string {
  const { t } = useTranslation();
  return bucket === 'minute'
    ? t('dashboards.units.perMinute', 'Requests per minute')
    : t('dashboards.units.perHour', 'Requests per hour');
}

/**
 * Decisions over time as stacked bars, allowed below blocked, one bar per bucket of the overview (a minute up
 * to 6 hours, an hour beyond). Clicking a segment drills down to that bucket's decisions of that verdict. The
 * chart is an image to a screen reader; its figures, each a button doing the same drill-down, are in a table
 * that opens under it, which is the way there by keyboard.
 */
export function SeriesChart({
  title,
  headingOrder = 2,
  overview,
  verdicts = BOTH,
  onSelect,
  height = 220,
}: SeriesChartProps) {
  const { t } = useTranslation();
  const locale = useChartLocale();
  const headingId = useId();
  const tableId = useId();
  const [isTableOpen, setTableOpen] = useState(false);
  const verdictLabels = useVerdictLabels();
  const unit = useSeriesUnit(overview.bucket);
  const spansDays = Date.parse(overview.to) - Date.parse(overview.from) > 86_400_000;
  const formatTime = bucketTimeFormatter(locale, spansDays);
  const count = (value: number) => formatCount(value, locale);
  const bucketMs = BUCKET_MS[overview.bucket];
  const rangeEnd = Date.parse(overview.to);
  const selectionOf = (at: string, verdict: Verdict): SeriesSelection => {
    const start = Date.parse(at);
    return {
      from: new Date(start).toISOString(),
      to: new Date(Math.min(start + bucketMs, rangeEnd)).toISOString(),
      verdict,
    };
  };
  const data = overview.series.map((point: SeriesPoint) => ({ ...point, at: Date.parse(point.at) }));
  const totals = Object.fromEntries(
    verdicts.map((verdict) => [verdict, overview.series.reduce((sum, point) => sum + point[verdict], 0)]),
  ) as Record<Verdict, number>;
  const summary = verdicts
    .map((verdict) => `${verdictLabels[verdict]}: ${count(totals[verdict])}`)
    .join(', ');

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" mb="sm" gap="xs">
        <Stack gap={2}>
          <Title order={headingOrder} size="h4" id={headingId}>
            {title}
          </Title>
          <Text size="xs" c="dimmed">
            {unit}
          </Text>
        </Stack>
        <Button
          variant="subtle"
          size="xs"
          onClick={() => setTableOpen((open) => !open)}
          aria-expanded={isTableOpen}
          aria-controls={tableId}
        >
          {isTableOpen
            ? t('dashboards.series.hideTable', 'Hide the figures')
            : t('dashboards.series.showTable', 'Show the figures as a table')}
        </Button>
      </Group>
      <BarChart
        h={height}
        role="img"
        aria-label={t('dashboards.series.chartName', 'Chart: {{title}}, {{unit}}. {{summary}}.', {
          title,
          unit,
          summary,
        })}
        data={data}
        dataKey="at"
        type="stacked"
        series={verdicts.map((verdict) => ({
          name: verdict,
          label: verdictLabels[verdict],
          color: VERDICT_COLORS[verdict],
        }))}
        withLegend={verdicts.length > 1}
        yAxisLabel={unit}
        valueFormatter={count}
        gridAxis="y"
        xAxisProps={{ tickFormatter: (at: number) => formatTime(at), minTickGap: 24 }}
        yAxisProps={{ width: 72 }}
        tooltipProps={{ labelFormatter: (at: unknown) => (typeof at === 'number' ? formatTime(at) : '') }}
        tooltipAnimationDuration={0}
        barProps={(series) => ({
          cursor: 'pointer',
          isAnimationActive: false,
          onClick: (bar: { payload?: { at?: number } }) => {
            const at = bar.payload?.at;
            if (typeof at === 'number') {
              onSelect(selectionOf(new Date(at).toISOString(), series.name as Verdict));
            }
          },
        })}
        barChartProps={{ accessibilityLayer: false }}
      />
      <Box id={tableId}>
        {isTableOpen ? (
          <Table.ScrollContainer minWidth={360} mah={360} mt="sm">
            <Table striped stickyHeader aria-labelledby={headingId}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('dashboards.series.time', 'Time')}</Table.Th>
                  {verdicts.map((verdict) => (
                    <Table.Th key={verdict} scope="col" ta="end">
                      {verdictLabels[verdict]}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {overview.series.map((point) => (
                  <Table.Tr key={point.at}>
                    <Table.Th scope="row" fw={400}>
                      <time dateTime={point.at}>{formatTime(point.at)}</time>
                    </Table.Th>
                    {verdicts.map((verdict) => (
                      <Table.Td key={verdict} ta="end">
                        {point[verdict] > 0 ? (
                          <UnstyledButton
                            onClick={() => onSelect(selectionOf(point.at, verdict))}
                            td="underline"
                            fz="sm"
                            aria-label={t('dashboards.series.cell', '{{verdict}} at {{time}}: {{value}}', {
                              verdict: verdictLabels[verdict],
                              time: formatTime(point.at),
                              value: count(point[verdict]),
                            })}
                          >
                            {count(point[verdict])}
                          </UnstyledButton>
                        ) : (
                          count(0)
                        )}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Box>
    </Card>
  );
}
