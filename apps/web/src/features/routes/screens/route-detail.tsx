import { Alert, Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { type RouteEntry, Uuid } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { SystemBadge } from '../../../components/policy/rule-ref';
import { DetailList } from '../../../components/ui/detail-list';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { isMissing } from '../../../lib/policy-errors';
import { policyDisplayName, ruleDisplayName } from '../../../lib/policy-names';
import { useParentPolicy, useRoute, useRoutes } from '../api/get-routes';
import { useUpdateRoute } from '../api/save-route';
import { DevicePicker } from '../components/device-picker';
import {
  ActiveBadge,
  BackToRoutes,
  deviceRoutePath,
  isEditableRoute,
  policyEditorPath,
  RouteGateway,
  RouteNotFound,
  routeCopyPath,
  useActionLabels,
} from '../components/labels';
import { RouteForm } from '../components/route-form';
import { routeFieldErrors, useRouteSaveFeedback } from '../components/save-feedback';
import { Section } from '../components/section';
import { toNetworksText } from '../utils/networks';

/** Where the route stands among the tenant's ROUTE rules, in evaluation order. */
function EvaluationPosition({ route }: { route: RouteEntry }) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const routesQuery = useRoutes(tenant);
  if (routesQuery.isPending)
    return (
      <Text span size="sm">
        {t('common.loading', 'Loading…')}
      </Text>
    );
  const items = routesQuery.data?.items ?? [];
  const index = items.findIndex((item) => item.ruleId === route.ruleId && item.policyId === route.policyId);
  if (index < 0) {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <>
      {t('routes.detail.positionOf', '{{position, number}} of {{total, number}} route rules', {
        position: index + 1,
        total: items.length,
      })}
    </>
  );
}

/** The networks of a route, one per line. */
function Networks({ networks }: { networks: string[] }) {
  return (
    <List size="sm" listStyleType="none" spacing={2} ff="monospace">
      {networks.map((network) => (
        <List.Item key={network}>{network}</List.Item>
      ))}
    </List>
  );
}

/** The route's facts. */
function RouteFacts({ route }: { route: RouteEntry }) {
  const { t } = useTranslation();
  const actionLabels = useActionLabels();
  return (
    <DetailList
      items={[
        {
          label: t('routes.detail.networks', 'Destination networks'),
          value: <Networks networks={route.networks} />,
        },
        { label: t('routes.detail.action', 'Action'), value: actionLabels[route.action] },
        ...(route.action === 'route'
          ? [
              { label: t('routes.detail.gateway', 'Gateway'), value: <RouteGateway route={route} /> },
              {
                label: t('routes.detail.target', 'Gateway host name'),
                value: (
                  <Text span size="sm" ff="monospace">
                    {route.target}
                  </Text>
                ),
              },
            ]
          : []),
        ...(route.ports ? [{ label: t('routes.detail.ports', 'Ports'), value: route.ports }] : []),
        {
          label: t('routes.detail.policy', 'Policy'),
          value: (
            <Anchor component={Link} to={policyEditorPath(route.policyId)} size="sm">
              {policyDisplayName(t, route.policyName)}
            </Anchor>
          ),
        },
        {
          label: t('routes.detail.position', 'Evaluation position'),
          value: <EvaluationPosition route={route} />,
        },
        { label: t('routes.detail.state', 'State'), value: <ActiveBadge isActive={route.isActive} /> },
      ]}
    />
  );
}

/** Edits the route's rule inside its policy, starting from the rule as the policy holds it. */
function EditRoute({ route, onDone }: { route: RouteEntry; onDone: () => void }) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const feedback = useRouteSaveFeedback();
  const policyQuery = useParentPolicy(tenant, route.policyId);
  const update = useUpdateRoute(tenant, route, {
    onSuccess: () => {
      showSuccess(t('routes.edit.done', 'Route {{name}} saved.', { name: ruleDisplayName(t, route) }));
      onDone();
    },
    onError: feedback.onError,
  });
  if (policyQuery.isPending) return <LoadingState label={t('routes.edit.loading', 'Loading its policy…')} />;
  if (policyQuery.isError) {
    return <ErrorState error={policyQuery.error} onRetry={() => void policyQuery.refetch()} />;
  }
  const rule = policyQuery.data.rules.find((item) => item.id === route.ruleId);
  if (!rule) {
    return (
      <Alert color="yellow" variant="light" role="alert">
        {t(
          'routes.gone',
          'This route is no longer in its policy. Reload the page to see the routes as they are.',
        )}
      </Alert>
    );
  }
  return (
    <RouteForm
      initialValues={{
        name: rule.name,
        networks: toNetworksText(rule.url),
        target: rule.target || null,
        enabled: rule.enabled,
      }}
      submitLabel={t('routes.edit.submit', 'Save route')}
      onSubmit={(values) => {
        feedback.clear();
        return update.mutation.mutateAsync(values);
      }}
      fieldErrors={(error) => routeFieldErrors(error, t, update.ruleIndex(), false)}
      onCancel={onDone}
    >
      {feedback.alert}
    </RouteForm>
  );
}

/**
 * `/devices/route/:id`: one route (by its rule id) — its networks, gateway and status, policy and evaluation
 * position; edited in place within its policy (`policies:update`), system rules read-only; and a device picker
 * that shows the route as that device gets it.
 */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const tenant = useWorkingTenant();
  const canUpdate = useCan('policies:update');
  const canCreate = useCan('policies:create');
  const canViewDevices = useCan('devices:view');
  const isId = Uuid.safeParse(id).success;
  const routeQuery = useRoute(tenant, id, isId);
  const [isEditing, setEditing] = useState(false);

  if (!isId) return <RouteNotFound />;
  if (routeQuery.isPending) return <LoadingState label={t('routes.detail.loading', 'Loading route…')} />;
  if (routeQuery.isError && isMissing(routeQuery.error)) return <RouteNotFound />;
  if (routeQuery.isError)
    return <ErrorState error={routeQuery.error} onRetry={() => void routeQuery.refetch()} />;
  const route = routeQuery.data;
  const name = ruleDisplayName(t, route);
  const isEditable = isEditableRoute(route);

  return (
    <>
      <PageHeader
        title={name}
        badge={
          <Group gap="xs">
            <ActiveBadge isActive={route.isActive} />
            {route.system ? <SystemBadge /> : null}
          </Group>
        }
        actions={
          <>
            <BackToRoutes />
            {canCreate && route.action === 'route' ? (
              <Button component={Link} to={routeCopyPath(route.ruleId)} variant="default">
                {t('routes.detail.copy', 'Copy')}
              </Button>
            ) : null}
            {canUpdate && isEditable && !isEditing ? (
              <Button onClick={() => setEditing(true)}>{t('routes.detail.edit', 'Edit route')}</Button>
            ) : null}
          </>
        }
      />
      <Stack gap="md">
        {route.system ? (
          <Alert color="gray" variant="light" title={t('routes.detail.systemTitle', 'System rule')}>
            {t(
              'routes.detail.systemText',
              'The console derives this rule from other settings. It is shown here as it is evaluated and cannot be edited.',
            )}
          </Alert>
        ) : !isEditable ? (
          <Alert color="gray" variant="light">
            {t(
              'routes.detail.notARoute',
              'This rule does not route through a gateway. Change it in the policy editor.',
            )}
          </Alert>
        ) : null}
        {isEditing ? (
          <Section title={t('routes.edit.title', 'Edit route')}>
            <EditRoute route={route} onDone={() => setEditing(false)} />
          </Section>
        ) : (
          <Section title={t('routes.detail.route', 'Route')}>
            <RouteFacts route={route} />
          </Section>
        )}
        {canViewDevices ? (
          <Section title={t('routes.check.title', 'Check a device')}>
            <Text size="sm" mb="sm">
              {t(
                'routes.check.text',
                'See how one device’s traffic to this route is decided, and which gateway carries it.',
              )}
            </Text>
            <DevicePicker onPick={(deviceId) => navigate(deviceRoutePath(route.ruleId, deviceId))} />
          </Section>
        ) : null}
      </Stack>
    </>
  );
}
