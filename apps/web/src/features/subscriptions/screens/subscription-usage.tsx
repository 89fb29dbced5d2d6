import { Alert, Anchor, Button, Card, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { buildPath, type UsageSeries } from '@palisade/contracts';
import { lazy, Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatCount } from '../../../components/charts/format';
import { useListAddress } from '../../../components/list/use-list-address';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useSession, useWorkingTenant } from '../../../lib/auth';
import { isNoSubscription, useSubscription } from '../api/get-subscription';
import { useSubscriptionUsage } from '../api/get-usage';
import { useLocale, usePlanNames } from '../components/labels';
import { PartnerUsageTable } from '../components/partner-usage-table';
import { formatCalendarDay, percentOf } from '../utils/format';
import { USAGE_RANGES, type UsageRange, usageScreenCodec } from '../utils/list-params';

/** The chart and its library: a chunk of their own, fetched when the usage is shown. */
const UsageChart = lazy(() => import('../components/usage-chart'));

/** The roles with a partner console: they see the rollup of the tenants they manage. */
const ROLLUP_ROLES: readonly string[] = ['partner_admin', 'platform_admin'];

/** The sentence that sums a range up: today's use against the seats, the peak, days over the limit. */
function useUsageSummary(series: UsageSeries | undefined): string {
  const { t } = useTranslation();
  const locale = useLocale();
  if (!series || series.points.length === 0)
    return t('subscriptions.usage.noPoints', 'No use recorded in this range yet.');
  const count = (value: number) => formatCount(value, locale);
  const last = series.points[series.points.length - 1];
  const peak = series.points.reduce((best, point) => (point.users > best.users ? point : best), last);
  const overDays = series.points.filter((point) => point.users > point.seats).length;
  const latest = t(
    'subscriptions.usage.summaryLatest',
    'On {{day}}: {{users}} end users of {{seats}} seats ({{percent}} %), {{devices}} devices.',
    {
      day: formatCalendarDay(last.day, locale),
      users: count(last.users),
      seats: count(last.seats),
      percent: count(percentOf(last.users, last.seats)),
      devices: count(last.devices),
    },
  );
  const peakText = t('subscriptions.usage.summaryPeak', 'Most end users: {{users}} on {{day}}.', {
    users: count(peak.users),
    day: formatCalendarDay(peak.day, locale),
  });
  const over =
    overDays > 0
      ? t('subscriptions.usage.summaryOver', {
          count: overDays,
          defaultValue_one: 'Over the seat limit on {{count, number}} day.',
          defaultValue_other: 'Over the seat limit on {{count, number}} days.',
        })
      : t('subscriptions.usage.summaryWithin', 'Within the seat limit on every day.');
  return `${latest} ${peakText} ${over}`;
}

/** The working tenant's use over the chosen range, against its plan. */
function TenantUsage({ tenant, days }: { tenant: string; days: UsageRange }) {
  const { t } = useTranslation();
  const planNames = usePlanNames();
  const subscription = useSubscription(tenant);
  const hasSubscription = subscription.isSuccess;
  const usage = useSubscriptionUsage(tenant, { days }, hasSubscription);
  const summary = useUsageSummary(usage.data);

  if (subscription.isPending)
    return <LoadingState label={t('subscriptions.usage.loading', 'Loading the usage…')} />;
  if (subscription.isError) {
    return isNoSubscription(subscription.error) ? (
      <EmptyState
        message={t(
          'subscriptions.usage.noSubscription',
          'This tenant has no subscription, so its use is not measured against a plan.',
        )}
      />
    ) : (
      <ErrorState error={subscription.error} onRetry={() => void subscription.refetch()} />
    );
  }
  const plan = subscription.data;
  return (
    <Stack gap="md">
      <Text size="sm">
        {t('subscriptions.usage.plan', '{{plan}} plan with {{seats}} seats; {{users}} end users now.', {
          plan: planNames[plan.plan],
          seats: plan.seats,
          users: plan.used.users,
        })}{' '}
        <Anchor component={Link} to={buildPath('/tenant/:id/subscriptions/', tenant)}>
          {t('subscriptions.usage.planLink', 'Open the subscription')}
        </Anchor>
      </Text>
      {plan.used.users > plan.seats ? (
        <Alert color="red" variant="light" title={t('subscriptions.usage.overTitle', 'Over the seat limit')}>
          {t(
            'subscriptions.usage.over',
            'More users than seats: no users can be added until seats are added or users removed.',
          )}
        </Alert>
      ) : null}
      {usage.isPending ? (
        <LoadingState label={t('subscriptions.usage.loading', 'Loading the usage…')} />
      ) : usage.isError ? (
        <ErrorState error={usage.error} onRetry={() => void usage.refetch()} />
      ) : (
        <Suspense
          fallback={<LoadingState label={t('subscriptions.usage.loadingChart', 'Loading the chart…')} />}
        >
          <UsageChart series={usage.data} summary={summary} />
        </Suspense>
      )}
    </Stack>
  );
}

/**
 * `/tenant/subscription/usage`: the working tenant's end users and devices per day against its seats, over the
 * last 30 or 90 days, as a chart with its figures as a table too. Partner and platform admins also get the
 * rollup of every tenant they manage (plan, status, seats, use, over the limit), server-paged, with totals.
 */
export function Component() {
  const { t } = useTranslation();
  const { session } = useSession();
  const tenant = useWorkingTenant();
  const canView = useCan('billing:view');
  const rangeLabelId = useId();
  const { state, setState, search } = useListAddress(usageScreenCodec);
  const hasRollup = session !== null && ROLLUP_ROLES.includes(session.role);
  const workingName =
    tenant === session?.tenant
      ? session.tenantDisplayName
      : (session?.managedTenantDisplayNames[tenant] ?? tenant);

  const title = t('subscriptions.usage.title', 'Subscription usage');
  if (!canView) {
    return (
      <>
        <PageHeader title={title} />
        <EmptyState
          message={t('subscriptions.notAllowed', 'Your role does not include the subscription and billing.')}
        />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={title}
        description={t('subscriptions.usage.description', 'Use of {{tenant}} against its plan.', {
          tenant: workingName,
        })}
        actions={
          <Button component={Link} to={buildPath('/tenant/:id/subscriptions/', tenant)} variant="default">
            {t('subscriptions.title', 'Subscription')}
          </Button>
        }
      />
      <Stack gap="lg">
        <Group gap="md" align="flex-end">
          <Stack gap={4}>
            <Text size="sm" fw={500} id={rangeLabelId}>
              {t('subscriptions.usage.range', 'Range')}
            </Text>
            <SegmentedControl
              aria-labelledby={rangeLabelId}
              value={String(state.days)}
              onChange={(value) => setState({ days: Number(value) as UsageRange })}
              data={USAGE_RANGES.map((days) => ({
                value: String(days),
                label: t('subscriptions.usage.lastDays', 'Last {{days}} days', { days }),
              }))}
            />
          </Stack>
        </Group>
        <TenantUsage tenant={tenant} days={state.days} />
        {hasRollup && session ? (
          <Card withBorder radius="md" padding="lg">
            <PartnerUsageTable
              consoleTenant={session.tenant}
              state={state}
              setState={setState}
              search={search}
            />
          </Card>
        ) : null}
      </Stack>
    </>
  );
}
