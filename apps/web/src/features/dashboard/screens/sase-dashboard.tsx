import { Anchor, Badge, Card, Group, SimpleGrid, Table, Text, Title } from '@mantine/core';
import type { AdminEvent, DashboardSummary } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmbedShareButton } from '../../../components/embed/embed-share-button';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { RelativeTime } from '../../../components/ui/relative-time';
import { useAuditLabels } from '../../../lib/audit-labels';
import { useCan, useSession, useWorkingTenant } from '../../../lib/auth';
import { embedTarget } from '../../../lib/embed-links';
import { formatNumber } from '../../../lib/i18n';
import { tenantFlagsQuery, useFeature } from '../../../lib/tenant-flags';
import { tenantDisplayName } from '../../../lib/tenant-names';
import { useDashboardSummary } from '../api/get-summary';

// The telemetry row brings the chart library: its own chunk, so the counts show without waiting for it.
const TelemetryRow = lazy(() => import('../components/telemetry-row'));

/** The path id of the global view: the dashboard of the working tenant. */
const GLOBAL_ID = 'global';

type CountKey = Exclude<keyof DashboardSummary, 'recentEvents'>;

/**
 * Whether the tenant the dashboard shows has XDR: the working tenant's flag ({@link useFeature}), or the flags of
 * another tenant named in the path, asked for (no while not known, or when they cannot be read).
 */
function useTenantHasXdr(tenant: string, isWorkingTenant: boolean): boolean {
  const workingHasXdr = useFeature('xdr');
  const other = useQuery(tenantFlagsQuery(tenant, !isWorkingTenant));
  if (isWorkingTenant) return workingHasXdr;
  return other.data?.features.includes('xdr') ?? false;
}

/** Where a tile leads: the list it counts, and the link's words. */
interface TileLink {
  to: string;
  text: string;
}

/** One count with its label and, when the list it counts can be shown, a link to it. */
function StatCard({
  label,
  value,
  hint,
  link,
}: {
  label: string;
  value: number;
  hint?: string;
  link?: TileLink;
}) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={label}>
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2} mt={4} data-testid="stat-value">
        {formatNumber(value)}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed" mt={4}>
          {hint}
        </Text>
      ) : null}
      {link ? (
        <Anchor component={Link} to={link.to} size="sm" mt="xs">
          {link.text}
        </Anchor>
      ) : null}
    </Card>
  );
}

function EventsTable({ events }: { events: AdminEvent[] }) {
  const { t } = useTranslation();
  const { actionLabel, objectTypeLabel, objectName } = useAuditLabels();
  if (events.length === 0) {
    return <EmptyState message={t('dashboard.events.empty', 'No administrator activity yet.')} />;
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('dashboard.events.when', 'When')}</Table.Th>
            <Table.Th scope="col">{t('dashboard.events.actor', 'Who')}</Table.Th>
            <Table.Th scope="col">{t('dashboard.events.action', 'What')}</Table.Th>
            <Table.Th scope="col">{t('dashboard.events.object', 'Object')}</Table.Th>
            <Table.Th scope="col">{t('dashboard.events.ip', 'IP address')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td>
                <RelativeTime value={event.at} withTooltip />
              </Table.Td>
              <Table.Td>{event.actor}</Table.Td>
              <Table.Td>{actionLabel(event.action)}</Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Badge variant="light" size="sm">
                    {objectTypeLabel(event.objectType)}
                  </Badge>
                  <Text size="sm">{objectName(event) ?? '—'}</Text>
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {event.ip ?? '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * `/main-dashboards/:id/SASEDashboard`: counts, the traffic of the last 24 hours (allowed and blocked requests and
 * the categories blocked most, each drilling down to its events) and recent admin events; `global` means the
 * working tenant.
 */
export function Component() {
  const { t } = useTranslation();
  const { id = GLOBAL_ID } = useParams();
  const { session } = useSession();
  const workingTenant = useWorkingTenant();
  const tenant = id === GLOBAL_ID ? workingTenant : id;
  const tenantLabel = tenantDisplayName(session, tenant);
  const summary = useDashboardSummary(tenant);
  const canViewUsers = useCan('users:view');
  const canViewGroups = useCan('groups:view');
  const canViewRoles = useCan('roles:view');

  // The lists are the working tenant's: a dashboard of another tenant (named in the path) links nowhere.
  const isWorkingTenant = tenant === workingTenant;
  // The XDR tile only where the tenant has XDR (contracts `FEATURE_PARTS.xdr`); the summary still counts them.
  const hasXdr = useTenantHasXdr(tenant, isWorkingTenant);
  const linkTo = (isAllowed: boolean, to: string, text: string): TileLink | undefined =>
    isWorkingTenant && isAllowed ? { to, text } : undefined;
  // The users list has no filter by access flag or connection yet: those tiles open the whole list (sorted
  // connected first for "Connected") and say so.
  const allUsers = linkTo(canViewUsers, '/users/list', t('dashboard.links.allUsers', 'Show all users'));
  const cards: { key: CountKey; label: string; hint?: string; link?: TileLink }[] = [
    { key: 'users', label: t('dashboard.stats.users', 'Users'), link: allUsers },
    {
      key: 'connectedUsers',
      label: t('dashboard.stats.connected', 'Connected'),
      hint: t('dashboard.stats.connectedHint', 'Users connected right now'),
      link: linkTo(
        canViewUsers,
        '/users/list?sort=connstatus',
        t('dashboard.links.connectedFirst', 'Show all users, connected first'),
      ),
    },
    {
      key: 'privateAccessUsers',
      label: t('dashboard.stats.privateAccess', 'Private access'),
      link: allUsers,
    },
    {
      key: 'internetAccessUsers',
      label: t('dashboard.stats.internetAccess', 'Internet access'),
      link: allUsers,
    },
    ...(hasXdr ? [{ key: 'xdrUsers' as const, label: t('dashboard.stats.xdr', 'XDR'), link: allUsers }] : []),
    {
      key: 'administrators',
      label: t('dashboard.stats.administrators', 'Administrators'),
      link: linkTo(
        canViewRoles,
        '/users/roles?tab=assignments',
        t('dashboard.links.administrators', 'Show administrators'),
      ),
    },
    {
      key: 'groups',
      label: t('dashboard.stats.groups', 'Groups'),
      link: linkTo(canViewGroups, '/users/groups', t('dashboard.links.groups', 'Show groups')),
    },
  ];

  let body: ReactNode;
  if (summary.isPending) {
    body = <LoadingState label={t('dashboard.loading', 'Loading the dashboard…')} />;
  } else if (summary.isError) {
    body = <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />;
  } else {
    const data = summary.data;
    const isEmpty = cards.every((card) => data[card.key] === 0) && data.recentEvents.length === 0;
    const telemetry = (
      <Suspense fallback={<LoadingState label={t('dashboards.loadingChart', 'Loading the chart…')} />}>
        <TelemetryRow tenant={tenant} />
      </Suspense>
    );
    body = isEmpty ? (
      <>
        <EmptyState message={t('dashboard.empty', 'Nothing to show yet: add users to see them here.')} />
        {telemetry}
      </>
    ) : (
      <>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" mb="xl">
          {cards.map((card) => (
            <StatCard
              key={card.key}
              label={card.label}
              value={data[card.key]}
              hint={card.hint}
              link={card.link}
            />
          ))}
        </SimpleGrid>
        {telemetry}
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="recent-events-title">
          <Title order={2} size="h4" id="recent-events-title" mb="md">
            {t('dashboard.events.title', 'Recent administrator activity')}
          </Title>
          <EventsTable events={data.recentEvents} />
        </Card>
      </>
    );
  }

  return (
    <>
      <PageHeader
        actions={<EmbedShareButton targets={[embedTarget('tenant', { tenant })]} />}
        title={t('dashboard.title', 'SASE dashboard')}
        description={t('dashboard.description', 'Users, access and recent changes in {{tenant}}.', {
          tenant: tenantLabel,
        })}
      />
      {body}
    </>
  );
}
