import { Alert, Anchor, Badge, Button, Code, Group, List, Stack, Text } from '@mantine/core';
import { type DeviceRoute, type RuleRef, Uuid } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useDecisionLabels } from '../../../components/policy/decision-labels';
import { RuleRefText } from '../../../components/policy/rule-ref';
import { DetailList } from '../../../components/ui/detail-list';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useWorkingTenant } from '../../../lib/auth';
import { isMissing } from '../../../lib/policy-errors';
import { ruleDisplayName } from '../../../lib/policy-names';
import { useDeviceRoute } from '../api/get-routes';
import {
  hasRoutePage,
  policyEditorPath,
  RouteGateway,
  RouteNotFound,
  routePath,
  useActionLabels,
} from '../components/labels';
import { Section } from '../components/section';

/** A value, or a dimmed dash (or `emptyText`) when there is none. */
function Value({
  value,
  isCode = false,
  emptyText = '—',
}: {
  value: string | null;
  isCode?: boolean;
  emptyText?: string;
}) {
  if (value === null || value === '') {
    return (
      <Text span size="sm" c="dimmed">
        {emptyText}
      </Text>
    );
  }
  return (
    <Text span size="sm" ff={isCode ? 'monospace' : undefined}>
      {value}
    </Text>
  );
}

/** The deciding rule, linked to its route page (a ROUTE rule) or its policy. */
function DecidingRule({ rule }: { rule: RuleRef | null }) {
  const { t } = useTranslation();
  if (!rule) {
    return (
      <Text span size="sm">
        {t('routes.device.noRule', 'No rule: the default applies (allowed, not routed).')}
      </Text>
    );
  }
  const to =
    rule.type === 'ROUTE' && hasRoutePage(rule) ? routePath(rule.ruleId) : policyEditorPath(rule.policyId);
  return (
    <Anchor component={Link} to={to} size="sm">
      <RuleRefText rule={rule} />
    </Anchor>
  );
}

/** The plain statement of whether this route carries the device's traffic, and if not, what does. */
function Verdict({ result }: { result: DeviceRoute }) {
  const { t } = useTranslation();
  const actionLabels = useActionLabels();
  const { route, device, decidedBy } = result;
  const name = ruleDisplayName(t, route);
  if (result.destination === null) {
    return (
      <Alert
        color="gray"
        variant="light"
        role="status"
        title={t('routes.device.noDestinationTitle', 'Nothing to decide')}
      >
        {t('routes.device.noDestination', 'This route has no address to decide for.')}
      </Alert>
    );
  }
  if (result.isThisRoute) {
    return (
      <Alert
        color="green"
        variant="light"
        role="status"
        title={t('routes.device.carriesTitle', 'This route carries the traffic')}
      >
        {t(
          'routes.device.carries',
          'Traffic from {{device}} to {{destination}} goes through {{gateway}} by route {{name}}.',
          {
            device: device.name,
            destination: result.destination,
            gateway: route.gateway?.name ?? result.gatewayTarget ?? route.target,
            name,
          },
        )}
      </Alert>
    );
  }
  let why: string;
  if (!decidedBy) {
    why = t(
      'routes.device.notCarriedDefault',
      'No rule decides it: it is allowed and not routed through a gateway.',
    );
  } else if (decidedBy.ruleId === route.ruleId) {
    why = t('routes.device.notCarriedSame', 'This rule decides it, but does not route it ({{action}}).', {
      action: actionLabels[decidedBy.action],
    });
  } else if (decidedBy.action === 'route' || result.gatewayTarget) {
    why = t(
      'routes.device.otherRoute',
      'Route {{rule}} of policy {{policy}} takes precedence and sends it through {{gateway}}.',
      {
        rule: ruleDisplayName(t, decidedBy),
        policy: decidedBy.policyName,
        gateway: result.gatewayTarget ?? '—',
      },
    );
  } else {
    why = t('routes.device.otherRule', 'Rule {{rule}} of policy {{policy}} decides it first ({{action}}).', {
      rule: ruleDisplayName(t, decidedBy),
      policy: decidedBy.policyName,
      action: actionLabels[decidedBy.action],
    });
  }
  return (
    <Alert
      color="orange"
      variant="light"
      role="status"
      title={t('routes.device.notCarriedTitle', 'This route does not carry the traffic')}
    >
      <Stack gap={4}>
        <Text size="sm">
          {t(
            'routes.device.notCarried',
            'Traffic from {{device}} to {{destination}} does not go through this route.',
            {
              device: device.name,
              destination: result.destination,
            },
          )}
        </Text>
        <Text size="sm">{why}</Text>
      </Stack>
    </Alert>
  );
}

/**
 * `/devices/route/:id/:deviceid`: the route as one device gets it — the engine's decision for the device's
 * traffic to the route's first address, the gateway it is routed through, the rule that decided, whether this
 * route is the one that carries it, and the device's WireGuard AllowedIPs towards the route's gateway.
 */
export function Component() {
  const { t } = useTranslation();
  const { id = '', deviceid = '' } = useParams();
  const tenant = useWorkingTenant();
  const decisions = useDecisionLabels();
  const isId = Uuid.safeParse(id).success && Uuid.safeParse(deviceid).success;
  const query = useDeviceRoute(tenant, id, deviceid, isId);

  const back = (
    <Button component={Link} to={routePath(id)} variant="default">
      {t('routes.device.back', 'Back to the route')}
    </Button>
  );
  if (!isId) return <RouteNotFound />;
  if (query.isPending) return <LoadingState label={t('routes.device.loading', 'Deciding for the device…')} />;
  if (query.isError && isMissing(query.error)) {
    return (
      <>
        <PageHeader title={t('routes.device.notFoundTitle', 'Route or device not found')} actions={back} />
        <Alert color="yellow" variant="light">
          {t(
            'routes.device.notFound',
            'The route or the device does not exist in this tenant (any more). Pick the device again on the route’s page.',
          )}
        </Alert>
      </>
    );
  }
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const result = query.data;
  const { route, device } = result;

  return (
    <>
      <PageHeader
        title={t('routes.device.title', '{{route}} for {{device}}', {
          route: ruleDisplayName(t, route),
          device: device.name,
        })}
        description={t(
          'routes.device.description',
          'What the policy decides for this device’s traffic to the route’s first address, and which tunnel carries it.',
        )}
        actions={back}
      />
      <Stack gap="md">
        <Verdict result={result} />
        <Section title={t('routes.device.deviceSection', 'Device')}>
          <DetailList
            items={[
              { label: t('routes.device.device', 'Device'), value: device.name },
              {
                label: t('routes.device.user', 'User'),
                value: <Value value={device.user?.username ?? null} />,
              },
              {
                label: t('routes.device.address', 'Tunnel address'),
                value: (
                  <Value
                    value={device.address}
                    isCode
                    emptyText={t('routes.device.noAddress', 'None: it did not enrol with a WireGuard key')}
                  />
                ),
              },
            ]}
          />
        </Section>
        <Section title={t('routes.device.decisionSection', 'Decision')}>
          <DetailList
            items={[
              {
                label: t('routes.device.destination', 'Destination'),
                value: <Value value={result.destination} isCode />,
              },
              {
                label: t('routes.device.decision', 'Decision'),
                value: result.decision ? (
                  <Badge color={result.decision === 'allow' ? 'green' : 'red'} variant="light" radius="sm">
                    {decisions[result.decision]}
                  </Badge>
                ) : (
                  <Value value={null} />
                ),
              },
              {
                label: t('routes.device.routedThrough', 'Routed through'),
                value: (
                  <Value
                    value={result.gatewayTarget}
                    emptyText={t('routes.device.notRouted', 'No gateway: not routed')}
                  />
                ),
              },
              {
                label: t('routes.device.decidedBy', 'Deciding rule'),
                value: <DecidingRule rule={result.decidedBy} />,
              },
              {
                label: t('routes.device.routeGateway', 'This route’s gateway'),
                value: <RouteGateway route={route} />,
              },
            ]}
          />
        </Section>
        <Section title={t('routes.device.allowedIps', 'AllowedIPs towards the gateway')}>
          {result.allowedIps.length > 0 ? (
            <Group gap="xs">
              <List size="sm" listStyleType="none" spacing={2}>
                {result.allowedIps.map((ip) => (
                  <List.Item key={ip}>
                    <Code>{ip}</Code>
                  </List.Item>
                ))}
              </List>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t(
                'routes.device.noAllowedIps',
                'None: the device has no tunnel to this route’s gateway (no WireGuard key, or no gateway answers to the route).',
              )}
            </Text>
          )}
        </Section>
      </Stack>
    </>
  );
}
