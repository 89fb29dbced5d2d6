import type { SITE_GATEWAY_KINDS, SitePerformanceRange } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

type SiteKind = (typeof SITE_GATEWAY_KINDS)[number];

/** The translated names of the site gateway kinds. */
export function useSiteKindLabels(): Record<SiteKind, string> {
  const { t } = useTranslation();
  return {
    cgw: t('sitePerformance.kind.cgw', 'Site gateway (CGW)'),
    cgwr: t('sitePerformance.kind.cgwr', 'Site gateway with router (CGWR)'),
    lgw: t('sitePerformance.kind.lgw', 'Local gateway (LGW)'),
  };
}

/** The choices of the range control. */
export function useRangeLabels(): Record<SitePerformanceRange, string> {
  const { t } = useTranslation();
  return {
    '1h': t('sitePerformance.range.1h', 'Last hour'),
    '24h': t('sitePerformance.range.24h', '24 hours'),
    '7d': t('sitePerformance.range.7d', '7 days'),
  };
}

/** The ranges as the end of a sentence: "over the last 24 hours". */
export function useRangePhrases(): Record<SitePerformanceRange, string> {
  const { t } = useTranslation();
  return {
    '1h': t('sitePerformance.rangePhrase.1h', 'over the last hour'),
    '24h': t('sitePerformance.rangePhrase.24h', 'over the last 24 hours'),
    '7d': t('sitePerformance.rangePhrase.7d', 'over the last 7 days'),
  };
}

/** The names of the four measures, as the summary, the charts and the table head them. */
export function useMeasureLabels() {
  const { t } = useTranslation();
  return {
    latency: t('sitePerformance.measure.latency', 'Latency'),
    loss: t('sitePerformance.measure.loss', 'Loss'),
    throughput: t('sitePerformance.measure.throughput', 'Throughput'),
    uptime: t('sitePerformance.measure.uptime', 'Tunnel uptime'),
  };
}
