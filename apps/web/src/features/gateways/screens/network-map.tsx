import { Alert, Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useSession, useSignInRedirectPath, useWorkingTenant } from '../../../lib/auth';
import { getSessionId } from '../../../lib/session-store';
import { NETWORK_MAP_CAP, useNetworkMap } from '../api/get-network-map';
import { GatewayStatusBadge, useKindLabels, useRegionText } from '../components/labels';
import { NetworkMapGraph } from '../components/network-map-graph';
import { NetworkMapLegend } from '../components/network-map-legend';
import { layoutNetworkMap, type NetworkMapLayout } from '../utils/network-map-layout';

/** The same gateways as the graph, as a table: for keyboard and screen-reader users, and to find one by name. */
function NetworkMapTable({ layout, id }: { layout: NetworkMapLayout; id: string }) {
  const { t } = useTranslation();
  const kindLabels = useKindLabels();
  const regionText = useRegionText();
  const cloud = t('gateways.map.cloud', 'Palisade cloud');
  return (
    <Table.ScrollContainer minWidth={640} id={id}>
      <Table striped verticalSpacing="xs">
        <Table.Caption>
          {t('gateways.map.tableCaption', 'Gateways on the map and what each links to')}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('gateways.map.colName', 'Name')}</Table.Th>
            <Table.Th scope="col">{t('gateways.map.colKind', 'Kind')}</Table.Th>
            <Table.Th scope="col">{t('gateways.map.colRegion', 'Region or site')}</Table.Th>
            <Table.Th scope="col">{t('gateways.map.colStatus', 'Status')}</Table.Th>
            <Table.Th scope="col">{t('gateways.map.colLinkedTo', 'Linked to')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {layout.rows.map(({ gateway, linkedTo }) => (
            <Table.Tr key={gateway.id}>
              <Table.Th scope="row" fw={400}>
                <Anchor
                  component={Link}
                  to={`/cybernodes/view?id=${encodeURIComponent(gateway.id)}`}
                  size="sm"
                >
                  {gateway.name}
                </Anchor>
              </Table.Th>
              <Table.Td>{kindLabels[gateway.kind]}</Table.Td>
              <Table.Td>{regionText(gateway.region)}</Table.Td>
              <Table.Td>
                <GatewayStatusBadge status={gateway.status} />
              </Table.Td>
              <Table.Td>{linkedTo ? linkedTo.name : cloud}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The map of a signed-in administrator's working tenant. */
function NetworkMap() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const map = useNetworkMap(tenant);
  const layout = useMemo(() => (map.data ? layoutNetworkMap(map.data.gateways) : null), [map.data]);
  const [isListShown, setListShown] = useState(true);
  const legendId = useId();
  const listId = useId();
  const listHeadingId = useId();

  const header = (
    <PageHeader
      title={t('gateways.map.title', 'Network map')}
      description={t(
        'gateways.map.description',
        'The Palisade cloud, the cybernodes by region and the site gateways linked to them, with their status.',
      )}
      actions={
        <Button component={Link} to="/cybernodes/list" variant="default">
          {t('gateways.backToList', 'Back to gateways')}
        </Button>
      }
    />
  );
  if (map.isPending) {
    return (
      <>
        {header}
        <LoadingState label={t('gateways.map.loading', 'Loading the network map…')} />
      </>
    );
  }
  if (!map.data || !layout) {
    return (
      <>
        {header}
        <ErrorState error={map.error} onRetry={() => void map.refetch()} />
      </>
    );
  }
  const shown = layout.rows.length;

  return (
    <>
      {header}
      <Stack gap="md">
        {/* A failed refresh keeps the last map on screen and says so. */}
        {map.isError ? <ErrorState error={map.error} onRetry={() => void map.refetch()} /> : null}
        <Text size="sm" c="dimmed">
          {t('gateways.map.live', 'The status refreshes every 5 seconds while this tab is open.')}
        </Text>
        {map.data.isTruncated ? (
          <Alert color="yellow">
            {t(
              'gateways.map.truncated',
              'The map shows the first {{shown, number}} of {{total, number}} gateways.',
              {
                shown: NETWORK_MAP_CAP,
                total: map.data.total,
              },
            )}
          </Alert>
        ) : null}
        {shown === 0 ? (
          <EmptyState
            message={
              layout.retired > 0
                ? t(
                    'gateways.map.onlyRetired',
                    'Every gateway of this tenant is retired: there is nothing to draw.',
                  )
                : t('gateways.map.empty', 'No gateways yet.')
            }
            action={
              <Button component={Link} to="/cybernodes/list" variant="default">
                {t('gateways.map.toList', 'Go to the gateways')}
              </Button>
            }
          />
        ) : (
          <>
            <NetworkMapLegend id={legendId} />
            <NetworkMapGraph
              layout={layout}
              label={t('gateways.map.graphLabel', {
                count: shown,
                defaultValue_one: 'Network map of {{count, number}} gateway',
                defaultValue_other: 'Network map of {{count, number}} gateways',
              })}
              describedBy={legendId}
            />
            {layout.retired > 0 ? (
              <Text size="sm" c="dimmed">
                {t('gateways.map.retiredHidden', {
                  count: layout.retired,
                  defaultValue_one: '{{count, number}} retired gateway is not shown.',
                  defaultValue_other: '{{count, number}} retired gateways are not shown.',
                })}
              </Text>
            ) : null}
            <Paper component="section" withBorder p="md" radius="sm" aria-labelledby={listHeadingId}>
              <Group justify="space-between" mb={isListShown ? 'sm' : 0}>
                <Title order={2} size="h4" id={listHeadingId}>
                  {t('gateways.map.listTitle', 'The map as a list')}
                </Title>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  aria-expanded={isListShown}
                  aria-controls={isListShown ? listId : undefined}
                  onClick={() => setListShown((isShown) => !isShown)}
                >
                  {isListShown
                    ? t('gateways.map.hideList', 'Hide list')
                    : t('gateways.map.showList', 'Show list')}
                </Button>
              </Group>
              {isListShown ? <NetworkMapTable layout={layout} id={listId} /> : null}
            </Paper>
          </>
        )}
      </Stack>
    </>
  );
}

/**
 * `/servers-nwmap`: the tenant's network as a live graph — the Palisade cloud, its cybernodes grouped by region,
 * virtual cybernodes and site gateways linked to the cybernode of their region — with a legend and the same
 * gateways as a table. Spec §2 lets paths with `servers-nwmap` skip the session check, but the map's data needs
 * the session: without one the screen sends the visitor to sign in, as the session guard does elsewhere.
 */
export function Component() {
  const location = useLocation();
  const { session, isLoading, error, refresh } = useSession();
  const signInRedirectPath = useSignInRedirectPath();
  const redirect = <Navigate to={signInRedirectPath} replace state={{ from: location }} />;
  if (!getSessionId()) return redirect;
  if (isLoading) return <LoadingState />;
  if (session) return <NetworkMap />;
  if (error) return <ErrorState error={error} onRetry={() => void refresh()} />;
  return redirect;
}
