import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { tenantQuery } from '../../features/tenant/api/tenant-queries';
import { useSession, useWorkingTenant } from '../../lib/auth';
import { type Appearance, resolveAppearance } from '../../lib/theme';

/**
 * The effective look: the user's saved theme and palette, else the working tenant's (fresh from the tenant
 * query when the role may read it, else as the session carries it), else light/classic.
 */
export function useAppearance(): Appearance {
  const { session } = useSession();
  const tenant = useWorkingTenant();
  const canReadTenant = session?.permissions.includes('tenant:view') ?? false;
  const { data: details } = useQuery({ ...tenantQuery(tenant), enabled: canReadTenant && tenant !== '' });
  const userTheme = session?.theme ?? null;
  const userPalette = session?.palette ?? null;
  const tenantTheme = details?.themevalue ?? session?.tenantTheme ?? null;
  const tenantPalette = details?.palette ?? session?.tenantPalette ?? null;
  const tenantPrimaryColor = details?.primaryColor ?? null;
  return useMemo(
    () => resolveAppearance({ userTheme, userPalette, tenantTheme, tenantPalette, tenantPrimaryColor }),
    [userTheme, userPalette, tenantTheme, tenantPalette, tenantPrimaryColor],
  );
}
