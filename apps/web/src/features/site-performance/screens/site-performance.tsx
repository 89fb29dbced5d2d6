import { Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { SITE_PERFORMANCE_RANGES, type SitePerformanceRange } from '@palisade/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { useSiteChoices, useSitePerformance } from '../api/get-site-performance';
import { useRangeLabels } from '../components/labels';
import { SiteCard } from '../components/site-card';
import { formatBucket } from '../utils/format';
import { parseAddress, type SitePerformanceAddress, toParams, toSearchParams } from '../utils/site-params';

/** The value of the site filter that stands for every site. */
const ALL_SITES = 'all';

/**
 * `/devices/site-performance` (issue 11): per site gateway, how its link did over the last hour, 24 hours or 7 days
 * — latency, loss, throughput and tunnel uptime as figures and charts, from the gateway's heartbeats. The range and
 * the site shown are kept in the address (`?range=24h&gateway=<id>`); the figures refresh every 30 seconds while
 * the tab is visible.
 */
export function Component() {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const tenant = useWorkingTenant();
  const canAddSite = useCan('gateways:create');
  const rangeLabelId = useId();
  const isPhone = useMediaQuery('(max-width: 48em)') ?? false;
  const rangeLabels = useRangeLabels();

  const [searchParams, setSearchParams] = useSearchParams();
  const state = parseAddress(searchParams);
  const setState = (patch: Partial<SitePerformanceAddress>) =>
    setSearchParams((current) => toSearchParams(current, { ...parseAddress(current), ...patch }));

  const figures = useSitePerformance(tenant, toParams(state));
  const choices = useSiteChoices(tenant, state.range);
  const hasNoSites = !state.gateway && figures.data?.sites.length === 0 && !figures.isPlaceholderData;

  const renderBody = () => {
    if (figures.isPending) {
      return <LoadingState label={t('sitePerformance.loading', 'Loading site performance…')} />;
    }
    const failure = figures.isError ? (
      <ErrorState error={figures.error} onRetry={() => void figures.refetch()} />
    ) : null;
    // A failed change of range or site keeps the previous answer as a placeholder: it is not shown as this one.
    const { data } = figures;
    if (data === undefined || (figures.isPlaceholderData && figures.isError)) return failure;
    if (data.sites.length === 0) {
      if (state.gateway) {
        return (
          <EmptyState
            message={t(
              'sitePerformance.siteGone',
              'There are no figures for this site: it is not one of the tenant’s site gateways.',
            )}
            action={
              <Button variant="default" onClick={() => setState({ gateway: '' })}>
                {t('sitePerformance.showAll', 'Show all sites')}
              </Button>
            }
          />
        );
      }
      return (
        <EmptyState
          message={t(
            'sitePerformance.empty',
            'No site gateway yet. Add one to see the latency, loss, throughput and uptime of its link.',
          )}
          action={
            canAddSite ? (
              <Button component={Link} to="/devices/new/add">
                {t('sitePerformance.addSite', 'Add site gateway')}
              </Button>
            ) : null
          }
        />
      );
    }
    const bucket = formatBucket(data.bucketMs, locale);
    return (
      <Stack gap="md">
        {failure}
        <Text size="sm" c="dimmed">
          {t('sitePerformance.bucket', 'Each point of the charts covers {{bucket}}.', { bucket })}
        </Text>
        {data.sites.map((site) => (
          <SiteCard key={site.gatewayId} site={site} range={data.range} bucket={bucket} />
        ))}
      </Stack>
    );
  };

  return (
    <>
      <PageHeader
        title={t('sitePerformance.title', 'Site performance')}
        description={t(
          'sitePerformance.description',
          'How the link of each site gateway performs, from its heartbeats: latency is the round trip the gateway measured, loss the share of expected heartbeats that did not arrive, tunnel uptime the share of minutes it was heard from.',
        )}
      />
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('sitePerformance.live', 'Figures refresh every 30 seconds while this tab is open.')}
        </Text>
        {hasNoSites ? null : (
          <Group align="flex-end" gap="md" wrap="wrap">
            <Stack gap={4}>
              <Text size="sm" fw={500} id={rangeLabelId}>
                {t('sitePerformance.rangeLabel', 'Time range')}
              </Text>
              <SegmentedControl
                aria-labelledby={rangeLabelId}
                orientation={isPhone ? 'vertical' : 'horizontal'}
                fullWidth={isPhone}
                value={state.range}
                onChange={(value) => setState({ range: value as SitePerformanceRange })}
                data={SITE_PERFORMANCE_RANGES.map((range) => ({ value: range, label: rangeLabels[range] }))}
              />
            </Stack>
            <Select
              label={t('sitePerformance.site', 'Site')}
              data={[
                { value: ALL_SITES, label: t('sitePerformance.allSites', 'All sites') },
                ...(choices.data ?? []),
              ]}
              searchable
              allowDeselect={false}
              nothingFoundMessage={t('sitePerformance.noSiteFound', 'No site found')}
              value={state.gateway || ALL_SITES}
              onChange={(value) => setState({ gateway: value === ALL_SITES || !value ? '' : value })}
              w={{ base: '100%', sm: 260 }}
            />
          </Group>
        )}
        {renderBody()}
      </Stack>
    </>
  );
}
