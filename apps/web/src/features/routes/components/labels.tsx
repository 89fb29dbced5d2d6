import { Alert, Badge, Button, Group, Text } from '@mantine/core';
import { type RouteEntry, type RuleAction, Uuid } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

import { GatewayStatusBadge, useGatewayStatusLabels } from '../../../components/ui/gateway-status';

export { GatewayStatusBadge, useGatewayStatusLabels };

import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState } from '../../../components/ui/query-state';

/** The list of routes. */
export const ROUTES_LIST_PATH = '/devices/route/list';
/** Adding a route. */
export const ROUTE_ADD_PATH = '/devices/routes/';
/** One route (by its rule id). */
export const routePath = (ruleId: string) => `/devices/route/${encodeURIComponent(ruleId)}`;
/** A new route prefilled from one. */
export const routeCopyPath = (ruleId: string) => `/device/route/${encodeURIComponent(ruleId)}/copy`;
/** A route as one device gets it. */
export const deviceRoutePath = (ruleId: string, deviceId: string) =>
  `${routePath(ruleId)}/${encodeURIComponent(deviceId)}`;
/** The policy editor of the policies area: the policy list with the policy's drawer open. */
export const policyEditorPath = (policyId: string) => `/policy/list?policy=${encodeURIComponent(policyId)}`;

/** Whether a route has a page of its own: the server looks routes up by a rule id that is a UUID. */
export function hasRoutePage(route: Pick<RouteEntry, 'ruleId'>): boolean {
  return Uuid.safeParse(route.ruleId).success;
}

/** Whether a route can be edited here: a route through a gateway that is not a system rule. */
export function isEditableRoute(route: Pick<RouteEntry, 'action' | 'system'>): boolean {
  return route.action === 'route' && !route.system;
}

/** The translated actions of a ROUTE rule. */
export function useActionLabels(): Record<RuleAction, string> {
  const { t } = useTranslation();
  return {
    route: t('routes.action.route', 'Routes through a gateway'),
    allow: t('routes.action.allow', 'Allows'),
    block: t('routes.action.block', 'Blocks'),
    qos: t('routes.action.qos', 'Sets a QoS class'),
    rewrite: t('routes.action.rewrite', 'Rewrites'),
  };
}

/** Whether a route is in force (its rule and policy enabled), as text on a badge. */
export function ActiveBadge({ isActive }: { isActive: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={isActive ? 'green' : 'gray'} variant="light" radius="sm" miw="max-content">
      {isActive ? t('routes.active', 'Active') : t('routes.inactive', 'Inactive')}
    </Badge>
  );
}

/** The gateway of a route: its name and status, or a warning when no gateway answers to the target. */
export function RouteGateway({ route }: { route: RouteEntry }) {
  const { t } = useTranslation();
  if (route.action !== 'route') {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  if (!route.gateway) {
    return (
      <Text span size="sm" c="orange.8" fw={500}>
        {t('routes.noGateway', 'No gateway answers to {{target}}', { target: route.target || '—' })}
      </Text>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <Text span size="sm">
        {route.gateway.name}
      </Text>
      <GatewayStatusBadge status={route.gateway.status} />
    </Group>
  );
}

/** The link back to the routes. */
export function BackToRoutes() {
  const { t } = useTranslation();
  return (
    <Button component={Link} to={ROUTES_LIST_PATH} variant="default">
      {t('routes.backToList', 'Back to routes')}
    </Button>
  );
}

/** The "Route not found" state of the route screens. */
export function RouteNotFound() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('routes.notFound.title', 'Route not found')} />
      <EmptyState
        message={t(
          'routes.notFound.message',
          'There is no route with this address in this tenant. It may have been deleted, or the link is incomplete.',
        )}
        action={<BackToRoutes />}
      />
    </>
  );
}

/** Shown in place of a form the signed-in role may not use (the server refuses it as well). */
export function NotAllowed() {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" title={t('routes.notAllowed', 'Not available')}>
      {t('error.3', 'Your role does not allow this.')}
    </Alert>
  );
}
