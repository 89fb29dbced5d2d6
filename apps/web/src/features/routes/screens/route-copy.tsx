import { Alert } from '@mantine/core';
import { POLICY_NAME_MAX, RULE_NAME_MAX } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { isMissing } from '../../../lib/policy-errors';
import { ruleDisplayName } from '../../../lib/policy-names';
import { useRoute } from '../api/get-routes';
import { BackToRoutes, NotAllowed, RouteNotFound, useActionLabels } from '../components/labels';
import { NewRouteForm } from '../components/new-route';
import { toNetworksText } from '../utils/networks';

/** The copy variant of `/device/route/:id/:type` (spec §2); other types are not screens. */
export const COPY_TYPE = 'copy';

/** `/device/route/:id/copy`: the add form prefilled from route `:id`, its name marked as a copy. */
export function Component() {
  const { t } = useTranslation();
  const { id = '', type } = useParams();
  const tenant = useWorkingTenant();
  const canCreate = useCan('policies:create');
  const actionLabels = useActionLabels();
  const isCopy = type === COPY_TYPE;
  const routeQuery = useRoute(tenant, id, isCopy && canCreate);

  if (!isCopy) return <RouteNotFound />;
  const header = (description?: string) => (
    <PageHeader
      title={t('routes.copy.title', 'Copy route')}
      description={description}
      actions={<BackToRoutes />}
    />
  );
  if (!canCreate) {
    return (
      <>
        {header()}
        <NotAllowed />
      </>
    );
  }
  if (routeQuery.isPending) return <LoadingState label={t('routes.detail.loading', 'Loading route…')} />;
  if (routeQuery.isError && isMissing(routeQuery.error)) return <RouteNotFound />;
  if (routeQuery.isError)
    return <ErrorState error={routeQuery.error} onRetry={() => void routeQuery.refetch()} />;
  const route = routeQuery.data;
  const name = ruleDisplayName(t, route);
  return (
    <>
      {header(t('routes.copy.description', 'A new route based on {{name}}.', { name }))}
      {route.action !== 'route' ? (
        <Alert color="yellow" variant="light" mb="md">
          {t(
            'routes.copy.notARoute',
            'The original rule does not route through a gateway ({{action}}); the copy does.',
            {
              action: actionLabels[route.action],
            },
          )}
        </Alert>
      ) : null}
      <NewRouteForm
        initialValues={{
          name: t('routes.copy.name', 'Copy of {{name}}', { name }).slice(
            0,
            Math.min(RULE_NAME_MAX, POLICY_NAME_MAX),
          ),
          networks: toNetworksText(route.url),
          target: route.target || null,
          enabled: route.isActive,
        }}
      />
    </>
  );
}
