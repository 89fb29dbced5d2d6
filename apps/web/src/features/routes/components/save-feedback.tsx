import type { PolicyTestFailure } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TestFailuresAlert } from '../../../components/policy/test-failures-alert';
import { ApiError } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { notify } from '../../../lib/notify';
import { policyTestFailures } from '../../../lib/policy-errors';
import { RouteGoneError } from '../api/save-route';
import { type RouteFormValues, routeFieldOf } from '../utils/route-policy';

/**
 * The server's per-field problems of a refused route save, on the form's fields: the route's rule is at
 * `body.rules.<ruleIndex>`, and a new route's policy name is the route's name.
 */
export function routeFieldErrors(
  error: unknown,
  t: TFunction,
  ruleIndex: number,
  policyNameIsRouteName: boolean,
): Partial<Record<keyof RouteFormValues, string>> {
  if (!(error instanceof ApiError) || !error.details) return {};
  const errors: Partial<Record<keyof RouteFormValues, string>> = {};
  for (const detail of error.details) {
    const field = routeFieldOf(detail.path, ruleIndex, policyNameIsRouteName);
    if (!field || errors[field] !== undefined) continue;
    errors[field] = t(detail.message, {
      ...detail.values,
      defaultValue: t('validation.invalid', 'This value is not valid.'),
    });
  }
  return errors;
}

/**
 * How a route save that failed is told, as the policy editor tells it: the failing policy tests of a refused
 * change (409 `policy_tests_failed`) in an alert above the form, field problems on the fields, the rest in a toast.
 */
export function useRouteSaveFeedback() {
  const { t } = useTranslation();
  const [failures, setFailures] = useState<PolicyTestFailure[] | null>(null);
  return {
    clear: () => setFailures(null),
    onError: (error: unknown) => {
      const failed = policyTestFailures(error);
      if (failed) {
        setFailures(failed);
        return;
      }
      if (error instanceof RouteGoneError) {
        notify(
          t(
            'routes.gone',
            'This route is no longer in its policy. Reload the page to see the routes as they are.',
          ),
          { color: 'red', title: t('routes.saveFailed', 'The route was not saved') },
        );
        return;
      }
      showMutationError(t, error, {
        title: t('routes.saveFailed', 'The route was not saved'),
        fieldsOnForm: true,
      });
    },
    alert: failures ? <TestFailuresAlert failures={failures} onClose={() => setFailures(null)} /> : null,
  };
}
