import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useCreateRoute } from '../api/save-route';
import type { RouteFormValues } from '../utils/route-policy';
import { ROUTES_LIST_PATH, routePath } from './labels';
import { RouteForm } from './route-form';
import { routeFieldErrors, useRouteSaveFeedback } from './save-feedback';

/**
 * The form of a new route (add and copy): saving creates a route-type policy holding the route's rule, toasts,
 * and opens the new route's page.
 */
export function NewRouteForm({ initialValues }: { initialValues: RouteFormValues }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tenant = useWorkingTenant();
  const feedback = useRouteSaveFeedback();
  const createMutation = useCreateRoute(tenant, {
    onSuccess: ({ saved, ruleId }) => {
      showSuccess(t('routes.add.done', 'Route {{name}} added.', { name: saved.policy.name }));
      navigate(ruleId ? routePath(ruleId) : ROUTES_LIST_PATH);
    },
    onError: feedback.onError,
  });
  return (
    <RouteForm
      initialValues={initialValues}
      submitLabel={t('routes.add.submit', 'Add route')}
      onSubmit={(values) => {
        feedback.clear();
        return createMutation.mutateAsync(values);
      }}
      fieldErrors={(error) => routeFieldErrors(error, t, 0, true)}
      onCancel={() => navigate(ROUTES_LIST_PATH)}
    >
      {feedback.alert}
    </RouteForm>
  );
}
