import { Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { adminsKeys } from '../../features/admins/api/admins-keys';
import { AdminsPanel } from '../../features/admins/components/admins-panel';
import { AssignmentRoleSelect } from '../../features/roles/components/assignment-role-select';
import { ExportAssignmentsButton } from '../../features/roles/components/export-assignments-button';
import { Component as Roles } from '../../features/roles/screens/roles';
import { ASSIGNMENT_PAGE_SIZES } from '../../features/roles/utils/assignment-params';
import { TenantTokensPanel } from '../../features/tokens/components/tenant-tokens-panel';

type AssignmentPageSize = (typeof ASSIGNMENT_PAGE_SIZES)[number];

import { useCan, useWorkingTenant } from '../../lib/auth';

/**
 * `/users/roles`: the roles screen, whose "Assignments" tab is the one list of the tenant's administrators —
 * role (the roles feature's select), status and actions (the admins feature's: invite, suspend, remove), and the
 * role assignments' CSV export — and, for whoever may manage them, every administrator's API tokens. Composed
 * here because features never import each other and the spec has no path of its own for them.
 */
export function Component() {
  const canView = useCan('roles:view');
  const canUpdate = useCan('roles:update');
  const tenant = useWorkingTenant();
  const queryClient = useQueryClient();
  // A role change is shown once the list has the new role (the select holds the choice until then).
  const refreshAdmins = () => queryClient.invalidateQueries({ queryKey: adminsKeys.lists(tenant) });
  return (
    <Stack gap="lg">
      <Roles
        renderAssignments={(state, onStateChange) =>
          canView ? (
            <Stack maw={1100}>
              <AdminsPanel
                position={{ q: state.q, page: state.page, pageSize: state.pageSize }}
                onPositionChange={({ pageSize, ...patch }, options) =>
                  onStateChange(
                    // Only the offered sizes come back from the list.
                    { ...patch, ...(pageSize ? { pageSize: pageSize as AssignmentPageSize } : {}) },
                    options,
                  )
                }
                pageSizes={ASSIGNMENT_PAGE_SIZES}
                renderRole={(admin) => (
                  <AssignmentRoleSelect
                    assignment={{
                      userId: admin.id,
                      username: admin.username,
                      role: admin.role,
                      customRoleId: admin.customRoleId,
                    }}
                    onAssigned={refreshAdmins}
                  />
                )}
                toolbar={(q) => <ExportAssignmentsButton q={q} />}
              />
            </Stack>
          ) : null
        }
      />
      {canUpdate ? (
        <Stack maw={1100}>
          <TenantTokensPanel />
        </Stack>
      ) : null}
    </Stack>
  );
}
