import { Skeleton, Stack } from '@mantine/core';
import type { Decision, TelemetryDimension, TelemetryTop } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { BarList, type BarListItem, type Verdict } from '../../../components/charts/bar-list';
import { useChartLocale } from '../../../components/charts/format';
import { ErrorState } from '../../../components/ui/query-state';
import { countryNamer } from '../../../lib/country-names';
import type { ApiRange } from '../api/dashboards-keys';
import { useTelemetryTop } from '../api/get-telemetry';

const NO_NAMES: ReadonlyMap<string, string> = new Map();

/** The bars of a top list: countries by their name in the language, the rest by the server's label. */
export function useTopItems(): (top: TelemetryTop) => BarListItem[] {
  const locale = useChartLocale();
  const countryName = countryNamer(locale, NO_NAMES);
  return (top) =>
    top.items.map((item) => ({
      key: item.value,
      label: top.dimension === 'country' ? countryName(item.value) : item.label,
      allowed: item.allowed,
      blocked: item.blocked,
    }));
}

/** Props of {@link TopList}. */
export interface TopListProps {
  tenant: string;
  range: ApiRange | null;
  dimension: TelemetryDimension;
  title: string;
  /** Only decisions of this verdict (and only its segment drawn). */
  decision?: Decision;
  limit?: number;
  onSelect: (
    dimension: TelemetryDimension,
    item: BarListItem,
    verdict?: Verdict,
    onlyVerdict?: Verdict,
  ) => void;
}

/**
 * A top list of a dashboard: the values of one dimension with the most decisions in the range, each bar (and
 * each of its segments) a button opening its decisions.
 */
export function TopList({ tenant, range, dimension, title, decision, limit = 10, onSelect }: TopListProps) {
  const { t } = useTranslation();
  const toItems = useTopItems();
  const top = useTelemetryTop(
    tenant,
    range ? { ...range, dimension, limit, ...(decision ? { decision } : {}) } : null,
  );
  const onlyVerdict: Verdict | undefined =
    decision === 'block' ? 'blocked' : decision === 'allow' ? 'allowed' : undefined;

  const status = top.data ? null : top.isError ? (
    <ErrorState error={top.error} onRetry={() => void top.refetch()} />
  ) : (
    <Stack gap="xs" role="status" aria-label={t('dashboards.loadingList', 'Loading {{title}}…', { title })}>
      <Skeleton h={14} />
      <Skeleton h={14} />
      <Skeleton h={14} />
    </Stack>
  );
  return (
    <BarList
      title={title}
      unit={
        onlyVerdict === 'blocked'
          ? t('dashboards.units.blockedInRange', 'Blocked requests in the time range')
          : t('dashboards.units.requestsInRange', 'Requests in the time range')
      }
      items={top.data ? toItems(top.data) : []}
      status={status}
      verdicts={onlyVerdict ? [onlyVerdict] : undefined}
      onSelect={(item, verdict) => onSelect(dimension, item, verdict, onlyVerdict)}
      emptyText={t('dashboards.emptyList', 'Nothing in this time range.')}
    />
  );
}
