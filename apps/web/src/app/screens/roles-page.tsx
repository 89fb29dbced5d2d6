import { Stack } from '@mantine/core';
import { AdminsPanel } from '../../features/admins/components/admins-panel';
import { Component as Roles } from '../../features/roles/screens/roles';
import { TenantTokensPanel } from '../../features/tokens/components/tenant-tokens-panel';
import { useCan } from '../../lib/auth';

/**
 * `/users/roles`: the roles screen and, below it, the tenant's administrators (invite, suspend, remove) and, for
 * whoever may manage them, every administrator's API tokens. Composed here because features never import each
 * other and the spec has no path of its own for them.
 */
export function Component() {
  const canView = useCan('roles:view');
  const canUpdate = useCan('roles:update');
  return (
    <Stack gap="lg">
      <Roles />
      {canView ? (
        <Stack maw={1100}>
          <AdminsPanel />
        </Stack>
      ) : null}
      {canUpdate ? (
        <Stack maw={1100}>
          <TenantTokensPanel />
        </Stack>
      ) : null}
    </Stack>
  );
}
