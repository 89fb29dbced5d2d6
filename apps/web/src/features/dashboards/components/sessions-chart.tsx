import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Card, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount, useChartLocale } from '../../../components/charts/format';

/** One bar: a site gateway's sessions, and where its connection events are. */
export interface SiteSessions {
  id: string;
  name: string;
  sessions: number;
  href: string;
}

/**
 * Sessions per site gateway as bars; clicking a bar opens the connection events of that gateway over the range.
 * The chart is an image to a screen reader; the table under it has the same figures and links.
 */
export function SessionsChart({
  sites,
  onSelect,
}: {
  sites: SiteSessions[];
  onSelect: (site: SiteSessions) => void;
}) {
  const { t } = useTranslation();
  const locale = useChartLocale();
  const headingId = useId();
  const title = t('dashboards.spa.chart', 'Sessions per site');
  const unit = t('dashboards.units.sessionsInRange', 'Sessions in the time range');
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
      <BarChart
        h={Math.max(160, sites.length * 36 + 40)}
        role="img"
        aria-label={t(
          'dashboards.spa.chartName',
          'Chart: {{title}}, {{unit}}. The figures are in the table below.',
          {
            title,
            unit,
          },
        )}
        data={sites.map((site) => ({ name: site.name, sessions: site.sessions, id: site.id }))}
        dataKey="name"
        orientation="vertical"
        series={[{ name: 'sessions', label: t('dashboards.spa.sessions', 'Sessions'), color: 'indigo.6' }]}
        valueFormatter={(value) => formatCount(value, locale)}
        xAxisLabel={unit}
        yAxisProps={{ width: 140 }}
        gridAxis="x"
        tooltipAnimationDuration={0}
        barChartProps={{ accessibilityLayer: false }}
        barProps={{
          cursor: 'pointer',
          isAnimationActive: false,
          onClick: (bar: { payload?: { id?: string } }) => {
            const site = sites.find((entry) => entry.id === bar.payload?.id);
            if (site) onSelect(site);
          },
        }}
      />
    </Card>
  );
}
