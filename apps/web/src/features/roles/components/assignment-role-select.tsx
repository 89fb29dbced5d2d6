import { NativeSelect, Text } from '@mantine/core';
import {
  type AssignRoleInput,
  type CustomRole,
  type Role,
  type RoleAssignment,
  TENANT_ADMIN_ROLES,
} from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useCan, useSession, useWorkingTenant } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { builtInRoleNames, roleLabel } from '../../../lib/role-names';
import { useAssignRole } from '../api/assign-role';
import { useRoles } from '../api/get-roles';

/** Errcode of `last_owner`: the last owner of a tenant cannot be given another role. */
const LAST_OWNER_ERRCODE = 17;

/** Roles that may make or unmake owners (the server refuses everyone else). */
const OWNER_MAKERS: readonly Role[] = ['owner', 'partner_admin', 'platform_admin'];

/** The select's value of an assignment: `role:<built-in>` or `custom:<id>`. */
export function choiceOf(assignment: Pick<RoleAssignment, 'role' | 'customRoleId'>): string {
  return assignment.role === 'custom' && assignment.customRoleId
    ? `custom:${assignment.customRoleId}`
    : `role:${assignment.role}`;
}

/** The body of an assignment from a select value: exactly one of `role` and `customRoleId` is set. */
export function inputOf(choice: string): AssignRoleInput {
  const [kind, value] = [choice.slice(0, choice.indexOf(':')), choice.slice(choice.indexOf(':') + 1)];
  return kind === 'custom'
    ? { role: null, customRoleId: value }
    : { role: value as AssignRoleInput['role'], customRoleId: null };
}

/** Props of {@link AssignmentRoleSelect}. */
export interface AssignmentRoleSelectProps {
  /** Whose role, and which it is now. */
  assignment: Pick<RoleAssignment, 'userId' | 'username' | 'role' | 'customRoleId'>;
  /**
   * Called once a change is saved, and awaited before the select lets go of the chosen role: the list the select
   * sits in reloads there, so it never flashes the old role.
   */
  onAssigned?: () => Promise<unknown> | undefined;
}

/**
 * An administrator's role: a select that saves at once and says how it went (the last owner keeps their role,
 * owners are made and unmade only by those who may), or the role as text to a role that may not change roles.
 * The roles feature's piece of the administrators list (composed in `app/screens/roles-page.tsx`).
 */
export function AssignmentRoleSelect({ assignment, onAssigned }: AssignmentRoleSelectProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const { session, refresh } = useSession();
  const canUpdate = useCan('roles:update');
  const mayTouchOwners = session ? OWNER_MAKERS.includes(session.role) : false;
  const names = builtInRoleNames(t);
  const customRoles: CustomRole[] = useRoles(tenant).data?.custom ?? [];
  const customRoleName = customRoles.find((role) => role.id === assignment.customRoleId)?.name ?? null;

  // What the select shows while the change is saved, and why a change was refused.
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const assignMutation = useAssignRole(tenant, {
    onSuccess: async (assigned) => {
      await onAssigned?.();
      setPending(null);
      showSuccess(
        t('roles.assign.done', '{{username}} is now {{role}}.', {
          username: assigned.username,
          role: roleLabel(t, assigned.role as Role, assigned.customRoleName),
        }),
      );
      // A change to one's own role changes what the console offers.
      if (assigned.userId === session?.userid) void refresh();
    },
    onError: (failure) => {
      setPending(null);
      if (failure instanceof ApiError && failure.errcode === LAST_OWNER_ERRCODE) {
        setError(t('roles.assign.lastOwner', 'This is the last owner. Make someone else owner first.'));
      }
      showMutationError(t, failure, { title: t('roles.assign.failed', 'The role was not changed') });
    },
  });

  const current = choiceOf(assignment);
  const shownRole = roleLabel(t, assignment.role as Role, customRoleName);
  if (!canUpdate) return <Text size="sm">{shownRole}</Text>;

  const handleChange = (choice: string) => {
    if (choice === current) return;
    setError(null);
    setPending(choice);
    assignMutation.mutate({ userId: assignment.userId, body: inputOf(choice) });
  };

  const isTenantRole = (TENANT_ADMIN_ROLES as readonly string[]).includes(assignment.role);
  return (
    <NativeSelect
      aria-label={t('roles.assign.label', 'Role of {{username}}', { username: assignment.username })}
      size="xs"
      miw={220}
      value={pending ?? current}
      disabled={pending !== null || (assignment.role === 'owner' && !mayTouchOwners)}
      error={error}
      onChange={(event) => handleChange(event.currentTarget.value)}
    >
      {!isTenantRole && assignment.role !== 'custom' ? (
        <option value={current} disabled>
          {shownRole}
        </option>
      ) : null}
      <optgroup label={t('roles.assign.builtInGroup', 'Built-in roles')}>
        {TENANT_ADMIN_ROLES.map((role) => (
          <option key={role} value={`role:${role}`} disabled={role === 'owner' && !mayTouchOwners}>
            {names[role]}
          </option>
        ))}
      </optgroup>
      {customRoles.length > 0 || (assignment.role === 'custom' && assignment.customRoleId !== null) ? (
        <optgroup label={t('roles.assign.customGroup', 'Custom roles')}>
          {customRoles.map((role) => (
            <option key={role.id} value={`custom:${role.id}`}>
              {role.name}
            </option>
          ))}
          {assignment.role === 'custom' && customRoleName === null ? (
            <option value={current}>{names.custom}</option>
          ) : null}
        </optgroup>
      ) : null}
    </NativeSelect>
  );
}
