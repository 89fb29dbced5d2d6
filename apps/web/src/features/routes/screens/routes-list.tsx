import { Anchor, Button, Group, List, Switch, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import type { RouteEntry } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { SystemBadge } from '../../../components/policy/rule-ref';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { policyDisplayName, ruleDisplayName } from '../../../lib/policy-names';
import { useRoutes } from '../api/get-routes';
import {
  ActiveBadge,
  hasRoutePage,
  policyEditorPath,
  ROUTE_ADD_PATH,
  RouteGateway,
  routeCopyPath,
  routePath,
  useActionLabels,
} from '../components/labels';

/** Whether a route matches a search: on its name, its networks, its target and its gateway's name. */
export function matchesSearch(t: TFunction, route: RouteEntry, search: string): boolean {
  const wanted = search.trim().toLowerCase();
  if (wanted === '') return true;
  return [
    ruleDisplayName(t, route),
    route.ruleName,
    route.target,
    route.gateway?.name ?? '',
    ...route.networks,
  ].some((text) => text.toLowerCase().includes(wanted));
}

/**
 * `/devices/route/list`: the tenant's routes in the order the engine evaluates them — by default the rules that
 * send networks through a gateway; a switch shows every ROUTE rule (allow and block rules, system rules too).
 * The list comes whole, so the search filters it here.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('policies:create');
  const routesQuery = useRoutes(tenant);
  const actionLabels = useActionLabels();
  const [searchParams, setSearchParams] = useSearchParams();
  const showAll = searchParams.get('all') === 'true';
  const search = searchParams.get('q') ?? '';

  const setParam = (name: string, value: string | null) =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );

  const all = routesQuery.data?.items;
  const shown = useMemo(
    () =>
      (all ?? [])
        .map((route, index) => ({ route, position: index + 1 }))
        .filter(({ route }) => showAll || route.action === 'route')
        .filter(({ route }) => matchesSearch(t, route, search)),
    [all, showAll, search, t],
  );

  const renderRows = () => {
    if (routesQuery.isPending) return <LoadingState label={t('routes.list.loading', 'Loading routes…')} />;
    if (routesQuery.isError) {
      return <ErrorState error={routesQuery.error} onRetry={() => void routesQuery.refetch()} />;
    }
    if (shown.length === 0) {
      return (
        <EmptyState
          message={
            search.trim() !== ''
              ? t('routes.list.noMatch', 'No route matches this search.')
              : t('routes.list.empty', 'No routes yet.')
          }
          action={
            canCreate && search.trim() === '' ? (
              <Button component={Link} to={ROUTE_ADD_PATH} variant="light" size="xs">
                {t('routes.list.add', 'Add route')}
              </Button>
            ) : undefined
          }
        />
      );
    }
    return (
      <Table.ScrollContainer minWidth={800}>
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Caption>
            {t(
              'routes.list.caption',
              'Routes in the order they are evaluated; the first matching rule decides.',
            )}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('routes.list.position', 'Order')}</Table.Th>
              <Table.Th scope="col">{t('routes.list.name', 'Name')}</Table.Th>
              <Table.Th scope="col">{t('routes.list.networks', 'Networks')}</Table.Th>
              {showAll ? <Table.Th scope="col">{t('routes.list.action', 'Action')}</Table.Th> : null}
              <Table.Th scope="col">{t('routes.list.gateway', 'Gateway')}</Table.Th>
              <Table.Th scope="col">{t('routes.list.policy', 'Policy')}</Table.Th>
              <Table.Th scope="col">{t('routes.list.state', 'State')}</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>{t('routes.list.actions', 'Actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map(({ route, position }) => {
              const name = ruleDisplayName(t, route);
              return (
                <Table.Tr key={`${route.policyId}:${route.ruleId}`}>
                  <Table.Td>{position}</Table.Td>
                  <Table.Th scope="row" fw={500}>
                    <Group gap="xs" wrap="nowrap">
                      {hasRoutePage(route) ? (
                        <Anchor component={Link} to={routePath(route.ruleId)} size="sm">
                          {name}
                        </Anchor>
                      ) : (
                        <Text span size="sm">
                          {name}
                        </Text>
                      )}
                      {route.system ? <SystemBadge /> : null}
                    </Group>
                  </Table.Th>
                  <Table.Td>
                    <List size="sm" listStyleType="none" spacing={2} ff="monospace">
                      {route.networks.map((network) => (
                        <List.Item key={network}>{network}</List.Item>
                      ))}
                    </List>
                  </Table.Td>
                  {showAll ? <Table.Td>{actionLabels[route.action]}</Table.Td> : null}
                  <Table.Td>
                    <RouteGateway route={route} />
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={policyEditorPath(route.policyId)} size="sm">
                      {policyDisplayName(t, route.policyName)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <ActiveBadge isActive={route.isActive} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap" justify="flex-end">
                      {hasRoutePage(route) ? (
                        <Button
                          component={Link}
                          to={routePath(route.ruleId)}
                          size="compact-sm"
                          variant="subtle"
                          aria-label={t('routes.list.openLabel', 'Open route {{name}}', { name })}
                        >
                          {t('routes.list.open', 'Open')}
                        </Button>
                      ) : null}
                      {canCreate && hasRoutePage(route) && route.action === 'route' ? (
                        <Button
                          component={Link}
                          to={routeCopyPath(route.ruleId)}
                          size="compact-sm"
                          variant="subtle"
                          aria-label={t('routes.list.copyLabel', 'Copy route {{name}}', { name })}
                        >
                          {t('routes.list.copy', 'Copy')}
                        </Button>
                      ) : null}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  };

  return (
    <>
      <PageHeader
        title={t('routes.list.title', 'Routes')}
        description={t(
          'routes.list.description',
          'Which destination networks devices reach through which gateway. Each route is a rule of a device policy.',
        )}
        actions={
          canCreate ? (
            <Button component={Link} to={ROUTE_ADD_PATH}>
              {t('routes.list.add', 'Add route')}
            </Button>
          ) : null
        }
      />
      <Group justify="space-between" align="flex-end" gap="md" mb="md">
        <TextInput
          type="search"
          label={t('routes.list.search', 'Search routes')}
          placeholder={t('routes.list.searchPlaceholder', 'Name, network or gateway')}
          value={search}
          onChange={(event) => setParam('q', event.currentTarget.value)}
          w={{ base: '100%', sm: 320 }}
        />
        <Switch
          label={t('routes.list.showAll', 'Show every route rule (allow, block and system rules too)')}
          checked={showAll}
          onChange={(event) => setParam('all', event.currentTarget.checked ? 'true' : null)}
        />
      </Group>
      {renderRows()}
    </>
  );
}
