import { Button, Drawer, Group, Stack, Table, Text } from '@mantine/core';
import { type DecisionEvent, telemetryEndpoints } from '@palisade/contracts';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../lib/api-client';
import { useCan } from '../../lib/auth';
import { countryNamer } from '../../lib/country-names';
import { attachmentName, fileRequest, useLostSession } from '../../lib/file-request';
import { showMutationError } from '../../lib/mutation-toast';
import { saveBlob } from '../../lib/save-file';
import { EmptyState, ErrorState, LoadingState } from '../ui/query-state';
import type { DecisionDrill, DecisionFilters } from './drill-down';
import { dateTimeFormatter, formatBytes, formatCount, useChartLocale } from './format';
import { useLayerLabels, useVerdictLabels } from './labels';
import { SimulatedRowBadge } from './simulated-badge';

/** How many decisions one "Load more" adds. */
export const DRILL_DOWN_PAGE_SIZE = 50;

const NO_NAMES: ReadonlyMap<string, string> = new Map();

/** Query key of the decisions of a drill-down, under the tenant so a tenant switch never shows another's. */
export const decisionEventsKey = (tenant: string, filters: DecisionFilters) =>
  ['tenant', tenant, 'decision-events', filters] as const;

/**
 * The decisions of a drill-down, newest first, page after page (`GET /api/events/decisions/:tenant`, each page
 * after the previous one's cursor; the first page counts them).
 */
function useDecisionEvents(tenant: string, filters: DecisionFilters | null) {
  return useInfiniteQuery({
    queryKey: decisionEventsKey(tenant, filters ?? { from: '', to: '' }),
    queryFn: ({ pageParam, signal }) =>
      request(telemetryEndpoints.listDecisionEvents, {
        params: { tenant },
        query: {
          ...(filters as DecisionFilters),
          limit: DRILL_DOWN_PAGE_SIZE,
          ...(pageParam ? { cursor: pageParam, withTotal: 'false' as const } : {}),
        },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: filters !== null,
    meta: { isSilent: true },
  });
}

/** Every decision of the filters as a CSV file (`GET /api/events/decisions/:tenant/export`), saved by the browser. */
function useExportDecisions(tenant: string) {
  const { t } = useTranslation();
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: async (filters: DecisionFilters) => {
      const path = telemetryEndpoints.exportDecisionEvents.path.replace(
        ':tenant',
        encodeURIComponent(tenant),
      );
      const response = await fileRequest(path, { query: { ...filters }, onLostSession });
      return { blob: await response.blob(), fileName: attachmentName(response) ?? `decisions-${tenant}.csv` };
    },
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) =>
      showMutationError(t, error, { title: t('dashboards.drill.exportFailed', 'The export did not work') }),
  });
}

/** Props of {@link DecisionEvents}. */
export interface DecisionEventsProps {
  tenant: string;
  /** Which decisions: a range and the filters of a figure, a search or a view. */
  filters: DecisionFilters;
  /** What the decisions are, for the table's name (the drill-down's title). */
  caption: string;
  /** What an empty list says (default: no events match the figure). */
  emptyText?: string;
}

/**
 * The decisions of `filters`, fetched from the server page by page ("Load more" continues after the last one),
 * with their count and a CSV export of the same filters. A role without `events:view` sees why the list is not
 * there. The body of the drill-down drawer, and of the embedded dashboards that list decisions.
 */
export function DecisionEvents({ tenant, filters, caption, emptyText }: DecisionEventsProps) {
  const { t } = useTranslation();
  const canViewEvents = useCan('events:view');
  const locale = useChartLocale();
  const formatDateTime = dateTimeFormatter(locale);
  const events = useDecisionEvents(tenant, canViewEvents ? filters : null);
  const exporter = useExportDecisions(tenant);

  if (!canViewEvents) {
    return (
      <EmptyState
        message={t(
          'dashboards.drill.forbidden',
          'Your role does not allow viewing the events behind this figure.',
        )}
      />
    );
  }
  if (events.isPending) return <LoadingState label={t('dashboards.drill.loading', 'Loading the events…')} />;
  if (events.isError && !events.data) {
    return <ErrorState error={events.error} onRetry={() => void events.refetch()} />;
  }
  const pages = events.data?.pages ?? [];
  const rows = pages.flatMap((page) => page.items);
  const first = pages[0];
  const total = first?.total ?? rows.length;
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Text size="sm" aria-live="polite">
          {first?.totalIsEstimate
            ? t('dashboards.drill.totalEstimate', {
                count: total,
                shown: formatCount(rows.length, locale),
                defaultValue_one: 'About {{count, number}} event; {{shown}} shown',
                defaultValue_other: 'About {{count, number}} events; {{shown}} shown',
              })
            : t('dashboards.drill.total', {
                count: total,
                shown: formatCount(rows.length, locale),
                defaultValue_one: '{{count, number}} event; {{shown}} shown',
                defaultValue_other: '{{count, number}} events; {{shown}} shown',
              })}
        </Text>
        <Button
          variant="default"
          size="xs"
          loading={exporter.isPending}
          onClick={() => exporter.mutate(filters)}
        >
          {t('dashboards.drill.export', 'Export as CSV')}
        </Button>
      </Group>
      {events.isError ? <ErrorState error={events.error} onRetry={() => void events.refetch()} /> : null}
      {rows.length === 0 ? (
        <EmptyState message={emptyText ?? t('dashboards.drill.empty', 'No events match this figure.')} />
      ) : (
        <DecisionTable rows={rows} caption={caption} formatDateTime={formatDateTime} />
      )}
      {events.hasNextPage ? (
        <Button
          variant="light"
          onClick={() => void events.fetchNextPage()}
          loading={events.isFetchingNextPage}
          style={{ alignSelf: 'center' }}
        >
          {t('dashboards.drill.loadMore', 'Load more')}
        </Button>
      ) : null}
    </Stack>
  );
}

/** Props of {@link DecisionDrillDown}. */
export interface DecisionDrillDownProps {
  tenant: string;
  /** What was clicked; null when the drawer is closed. */
  drill: DecisionDrill | null;
  onClose: () => void;
}

/** The drawer a chart segment opens: the decisions it stands for ({@link DecisionEvents}) over its range. */
export function DecisionDrillDown({ tenant, drill, onClose }: DecisionDrillDownProps) {
  const { t } = useTranslation();
  const locale = useChartLocale();
  const formatDateTime = dateTimeFormatter(locale);
  return (
    <Drawer
      opened={drill !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={drill?.title}
      closeButtonProps={{ 'aria-label': t('dashboards.drill.close', 'Close') }}
    >
      {drill ? (
        <>
          <Text size="sm" c="dimmed" mb="sm">
            {t('dashboards.drill.range', 'From {{from}} to {{to}}', {
              from: formatDateTime(drill.filters.from),
              to: formatDateTime(drill.filters.to),
            })}
          </Text>
          <DecisionEvents tenant={tenant} filters={drill.filters} caption={drill.title} />
        </>
      ) : null}
    </Drawer>
  );
}

/** The decisions as a table: when, the verdict, the layer, where to, why, and whose. */
function DecisionTable({
  rows,
  caption,
  formatDateTime,
}: {
  rows: DecisionEvent[];
  caption: string;
  formatDateTime: (at: string) => string;
}) {
  const { t } = useTranslation();
  const locale = useChartLocale();
  const layers = useLayerLabels();
  const verdicts = useVerdictLabels();
  const countryName = countryNamer(locale, NO_NAMES);
  const dash = '—';
  return (
    // A native scroller that takes the focus, so the keyboard scrolls the wide table (its cells hold no controls).
    <Table.ScrollContainer minWidth={1100} type="native" tabIndex={0} role="region" aria-label={caption}>
      <Table striped verticalSpacing="xs" fz="sm" aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('dashboards.drill.columns.time', 'Time')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.decision', 'Decision')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.layer', 'Layer')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.destination', 'Destination')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.category', 'Category')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.app', 'Application')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.country', 'Country')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.threat', 'Threat')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.rule', 'Rule')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.user', 'User')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.device', 'Device')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.drill.columns.gateway', 'Gateway')}</Table.Th>
            <Table.Th scope="col" ta="end">
              {t('dashboards.drill.columns.bytes', 'Data')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <time dateTime={event.at}>{formatDateTime(event.at)}</time>
              </Table.Td>
              <Table.Td>
                <Text span size="sm" fw={600} c={event.decision === 'block' ? 'red.9' : 'teal.9'}>
                  {event.decision === 'block' ? verdicts.blocked : verdicts.allowed}
                </Text>
                {event.simulated ? <SimulatedRowBadge /> : null}
              </Table.Td>
              <Table.Td>{layers[event.layer]}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {event.port ? `${event.destination}:${event.port}` : event.destination}
              </Table.Td>
              <Table.Td>{event.category ?? dash}</Table.Td>
              <Table.Td>{event.app ?? dash}</Table.Td>
              <Table.Td>{event.country ? countryName(event.country) : dash}</Table.Td>
              <Table.Td>{event.threat ?? dash}</Table.Td>
              <Table.Td>{event.ruleName ?? dash}</Table.Td>
              <Table.Td>{event.user ? event.user.name || event.user.id : dash}</Table.Td>
              <Table.Td>{event.device ? event.device.name || event.device.id : dash}</Table.Td>
              <Table.Td>{event.gateway ? event.gateway.name || event.gateway.id : dash}</Table.Td>
              <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                {event.bytes === null ? dash : formatBytes(event.bytes, locale)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
