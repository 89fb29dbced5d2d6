import { Anchor, Box, Card, Group, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { SitePerformance, SitePerformanceRange } from '@palisade/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { GatewayStatusBadge } from '../../../components/ui/gateway-status';
import { formatThroughput } from '../../../lib/throughput';
import { formatLatency, formatPercent } from '../utils/format';
import { useMeasureLabels, useSiteKindLabels } from './labels';
import { SiteCharts } from './site-charts';
import { SiteDataTable } from './site-data-table';

/** Whether the gateway was heard from at all in the range. */
export function hasFigures(site: SitePerformance): boolean {
  return site.series.some(
    (point) =>
      point.uptimePercent > 0 ||
      point.latencyMs !== null ||
      point.lossPercent !== null ||
      point.throughputBps !== null,
  );
}

/** A summary figure, or a dash that reads as "no data". */
function Figure({ value }: { value: string | null }) {
  const { t } = useTranslation();
  if (value !== null) return <>{value}</>;
  return (
    <>
      <span aria-hidden="true">—</span>
      <VisuallyHidden component="span">{t('sitePerformance.summary.noData', 'No data')}</VisuallyHidden>
    </>
  );
}

/** The four figures of the range as a description list. */
function SummaryList({ site }: { site: SitePerformance }) {
  const { i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const measures = useMeasureLabels();
  const { summary } = site;
  const items = [
    {
      label: measures.latency,
      value: summary.latencyMs === null ? null : formatLatency(summary.latencyMs, locale),
    },
    {
      label: measures.loss,
      value: summary.lossPercent === null ? null : formatPercent(summary.lossPercent, locale),
    },
    {
      label: measures.throughput,
      value: summary.throughputBps === null ? null : formatThroughput(summary.throughputBps, locale),
    },
    { label: measures.uptime, value: formatPercent(summary.uptimePercent, locale) },
  ];
  return (
    <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} spacing="md" verticalSpacing="sm" m={0}>
      {items.map((item) => (
        <Box key={item.label}>
          <Text component="dt" size="xs" c="dimmed" fw={500}>
            {item.label}
          </Text>
          <Text component="dd" size="lg" fw={600} m={0}>
            <Figure value={item.value} />
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  );
}

/** Props of {@link SiteCard}. */
export interface SiteCardProps {
  site: SitePerformance;
  range: SitePerformanceRange;
  /** The width of one point, as text ("15 minutes"). */
  bucket: string;
}

/**
 * One site gateway: its name (a link to its device page), kind, region and status, the figures of the range, and
 * its series as charts with a table of the same figures for screen readers — or a note that it was not heard
 * from in the range.
 */
export function SiteCard({ site, range, bucket }: SiteCardProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const kindLabels = useSiteKindLabels();
  const isHeard = hasFigures(site);
  return (
    <Card component="article" withBorder padding="md" radius="sm" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Stack gap={2}>
            <Title order={2} size="h4" id={headingId}>
              <Anchor component={Link} to={`/devices/${encodeURIComponent(site.gatewayId)}`} inherit>
                {site.name}
              </Anchor>
            </Title>
            <Group gap={6} wrap="wrap">
              <Text size="sm" c="dimmed">
                {kindLabels[site.kind]}
              </Text>
              <Text size="sm" c="dimmed" aria-hidden="true">
                ·
              </Text>
              <Text size="sm" c="dimmed">
                {site.region}
              </Text>
            </Group>
          </Stack>
          <GatewayStatusBadge status={site.status} />
        </Group>
        <SummaryList site={site} />
        {isHeard ? (
          <>
            <SiteCharts site={site} range={range} />
            <SiteDataTable site={site} range={range} bucket={bucket} />
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t('sitePerformance.notHeard', 'Not heard from in this range.')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
