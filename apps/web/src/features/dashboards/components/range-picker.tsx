import { Group, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  OnlyRealSwitch,
  SimulatedBadge,
  useOnlyRealTraffic,
} from '../../../components/charts/simulated-badge';
import type { ApiRange } from '../api/dashboards-keys';
import {
  DASHBOARD_RANGES,
  type DashboardRange,
  parseRange,
  type RangeState,
  type ResolvedRange,
  resolveRange,
  writeRange,
} from '../utils/range';

// The date pickers (Mantine dates, dayjs) load with the custom range only: the presets do without them.
const DateTimeField = lazy(async () => ({
  default: (await import('../../../components/ui/date-time-field')).DateTimeField,
}));

/** The range of a dashboard, kept in the address, with the range the API is asked for. */
export interface DashboardRangeState {
  state: RangeState;
  setState: (patch: Partial<RangeState>) => void;
  resolved: ResolvedRange;
  /**
   * The API range when it is one (with `source: 'gateway'` when simulated decisions are left out); null while a
   * custom range is incomplete or invalid.
   */
  apiRange: ApiRange | null;
  /** Leave out the decisions `--simulate-traffic` made up (`?source=gateway` in the address). */
  onlyReal: boolean;
  setOnlyReal: (onlyReal: boolean) => void;
}

/**
 * The dashboard's range from the address (`?range=…`); a preset ends at the next full minute, so its queries
 * stay the same for that minute and a change of range asks for the new one.
 */
export function useDashboardRange(): DashboardRangeState {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = parseRange(searchParams);
  const minute = Math.ceil(Date.now() / 60_000);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `minute` re-anchors a preset once a minute.
  const resolved = useMemo(
    () => resolveRange(state, Date.now()),
    [state.range, state.from, state.to, minute],
  );
  const setState = (patch: Partial<RangeState>) =>
    setSearchParams((current) => writeRange(current, { ...parseRange(current), ...patch }));
  const { onlyReal, setOnlyReal } = useOnlyRealTraffic();
  return {
    state,
    setState,
    resolved,
    apiRange: resolved.ok
      ? { from: resolved.from, to: resolved.to, ...(onlyReal ? { source: 'gateway' as const } : {}) }
      : null,
    onlyReal,
    setOnlyReal,
  };
}

/** The translated names of the ranges. */
export function useRangeLabels(): Record<DashboardRange, string> {
  const { t } = useTranslation();
  return {
    '1h': t('dashboards.range.1h', 'Last hour'),
    '24h': t('dashboards.range.24h', 'Last 24 hours'),
    '7d': t('dashboards.range.7d', 'Last 7 days'),
    '30d': t('dashboards.range.30d', 'Last 30 days'),
    custom: t('dashboards.range.custom', 'Custom'),
  };
}

/**
 * The time range control of a dashboard: the presets (last hour, 24 hours, 7 days, 30 days) or a custom start
 * and end, written into the address. A custom range that cannot be asked for says why under its fields. With
 * `simulated` (the decisions of the range that were simulated, from its overview), the switch that leaves
 * simulated decisions out, and a badge when the figures shown include some.
 */
export function RangePicker({ range, simulated }: { range: DashboardRangeState; simulated?: number }) {
  const { t } = useTranslation();
  const labelId = useId();
  const labels = useRangeLabels();
  const isPhone = useMediaQuery('(max-width: 48em)') ?? false;
  const { state, setState, resolved } = range;
  const problem = resolved.ok
    ? undefined
    : {
        incomplete: t('dashboards.range.incomplete', 'Choose a start and an end.'),
        inverted: t('dashboards.range.inverted', 'The end must be after the start.'),
        tooLong: t('dashboards.range.tooLong', 'A range covers at most 400 days.'),
      }[resolved.reason];

  return (
    <Group align="flex-end" gap="md" wrap="wrap" mb="lg">
      <Stack gap={4}>
        <Text size="sm" fw={500} id={labelId}>
          {t('dashboards.range.label', 'Time range')}
        </Text>
        <SegmentedControl
          aria-labelledby={labelId}
          orientation={isPhone ? 'vertical' : 'horizontal'}
          fullWidth={isPhone}
          value={state.range}
          onChange={(value) => setState({ range: value as DashboardRange, from: '', to: '' })}
          data={DASHBOARD_RANGES.map((value) => ({ value, label: labels[value] }))}
        />
      </Stack>
      {state.range === 'custom' ? (
        <Suspense
          fallback={
            <Loader size="sm" aria-label={t('dashboards.range.loading', 'Loading the date fields…')} />
          }
        >
          <DateTimeField
            label={t('dashboards.range.from', 'From')}
            value={state.from}
            onChange={(from) => setState({ from })}
            w={{ base: '100%', sm: 220 }}
          />
          <DateTimeField
            label={t('dashboards.range.to', 'To')}
            value={state.to}
            onChange={(to) => setState({ to })}
            error={problem}
            w={{ base: '100%', sm: 220 }}
          />
        </Suspense>
      ) : null}
      {simulated === undefined ? null : (
        <Group gap="sm" align="center" pb={6}>
          <OnlyRealSwitch checked={range.onlyReal} onChange={range.setOnlyReal} />
          <SimulatedBadge count={simulated} />
        </Group>
      )}
    </Group>
  );
}
