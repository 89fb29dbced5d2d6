import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { useAccessRequestCount } from '../api/access-requests';

/**
 * The navigation's count of access requests waiting for a decision (the working tenant's); nothing while there
 * are none, or for a role that cannot see them.
 */
export function AccessRequestsBadge() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canView = useCan('policies:view');
  const count = useAccessRequestCount(tenant, canView);
  const pending = count.data?.pending ?? 0;
  if (!canView || pending === 0) return null;
  return (
    <Badge
      size="sm"
      circle={pending < 10}
      color="red"
      ml="auto"
      aria-label={t('blockPage.badge', '{{count, number}} access requests waiting', { count: pending })}
    >
      {pending > 99 ? '99+' : pending}
    </Badge>
  );
}
