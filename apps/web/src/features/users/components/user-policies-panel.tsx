import { policyEndpoints, type User } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { request } from '../../../lib/api-client';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { PolicyList } from '../screens/user-policy-view';

/**
 * The policies that apply to one user and through what (the Policies tab of the user's page), from the
 * policies-per-user view: the user's own row among the matches of their username.
 */
export function UserPoliciesPanel({ user }: { user: User }) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canView = useCan('policies:view');
  const view = useQuery({
    queryKey: ['tenant', tenant, 'policies', 'user-view', { q: user.username, limit: 50 }],
    queryFn: ({ signal }) =>
      request(policyEndpoints.userPolicyView, {
        params: { tenant },
        query: { q: user.username, limit: 50 },
        signal,
      }),
    enabled: canView,
    meta: { isSilent: true },
  });
  if (!canView) return null;
  if (view.isPending)
    return <LoadingState label={t('users.policyView.loading', 'Loading users and policies…')} />;
  if (view.isError) return <ErrorState error={view.error} onRetry={() => void view.refetch()} />;
  const row = view.data.items.find((item) => item.id === user.id);
  return row ? <PolicyList user={row} /> : null;
}
