import 'mantine-datatable/styles.css';
import { Button, NativeSelect, Group as Row, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import {
  type AssignRoleInput,
  type CustomRole,
  type Role,
  type RoleAssignment,
  TENANT_ADMIN_ROLES,
} from '@palisade/contracts';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { ApiError } from '../../../lib/api-client';
import { useCan, useSession, useWorkingTenant } from '../../../lib/auth';
import { builtInRoleNames, roleLabel } from '../../../lib/role-names';
import { useAssignRole } from '../api/assign-role';
import { useExportAssignments } from '../api/export-assignments';
import { useAssignments } from '../api/get-assignments';
import { useRoles } from '../api/get-roles';
import { showMutationError, showSuccess } from '../api/mutation-toast';
import { ASSIGNMENT_PAGE_SIZES, type RolesScreenState, toAssignmentsQuery } from '../utils/assignment-params';

/** How long the search waits after the last keystroke before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;

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

/** Props of {@link AssignmentsPanel}. */
export interface AssignmentsPanelProps {
  state: RolesScreenState;
  onStateChange: (patch: Partial<RolesScreenState>, options?: { replace?: boolean }) => void;
}

/**
 * The "Assignments" tab: the tenant's administrators, server-paged and searchable, each with a role select that
 * saves at once (when the user may update roles) and says how it went.
 */
export function AssignmentsPanel({ state, onStateChange }: AssignmentsPanelProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const { session, refresh } = useSession();
  const canUpdate = useCan('roles:update');
  const mayTouchOwners = session ? OWNER_MAKERS.includes(session.role) : false;
  const names = builtInRoleNames(t);

  const query = toAssignmentsQuery(state);
  const assignmentsQuery = useAssignments(tenant, query);
  const rolesQuery = useRoles(tenant);
  const exportMutation = useExportAssignments(tenant);
  const customRoles: CustomRole[] = rolesQuery.data?.custom ?? [];

  // The box shows what is typed at once; the address (and so the query) follows after a pause.
  const [searchText, setSearchText] = useState(state.q);
  const applySearch = useDebouncedCallback((q: string) => {
    onStateChange({ q, page: 1 }, { replace: true });
  }, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    setSearchText((text) => (text.trim() === state.q.trim() ? text : state.q));
  }, [state.q]);

  // What each row shows while its change is saved, and the reason a change was refused.
  const [pending, setPending] = useState<Record<string, string>>({});
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  const settle = (userId: string) => setPending(({ [userId]: _done, ...rest }) => rest);

  const assignMutation = useAssignRole(tenant, {
    onSuccess: (assignment) => {
      settle(assignment.userId);
      showSuccess(
        t('roles.assign.done', '{{username}} is now {{role}}.', {
          username: assignment.username,
          role: roleLabel(t, assignment.role as Role, assignment.customRoleName),
        }),
      );
      // A change to one's own role changes what the console offers.
      if (assignment.userId === session?.userid) void refresh();
    },
    onError: (error, { userId }) => {
      settle(userId);
      const isLastOwner = error instanceof ApiError && error.errcode === LAST_OWNER_ERRCODE;
      const title = t('roles.assign.failed', 'The role was not changed');
      if (isLastOwner) {
        setRowErrors((errors) => ({
          ...errors,
          [userId]: t('roles.assign.lastOwner', 'This is the last owner. Make someone else owner first.'),
        }));
      }
      showMutationError(t, error, title);
    },
  });

  const handleChange = (assignment: RoleAssignment, choice: string) => {
    if (choice === choiceOf(assignment)) return;
    setRowErrors(({ [assignment.userId]: _old, ...rest }) => rest);
    setPending((current) => ({ ...current, [assignment.userId]: choice }));
    assignMutation.mutate({ userId: assignment.userId, body: inputOf(choice) });
  };

  const roleSelect = (assignment: RoleAssignment) => {
    const current = choiceOf(assignment);
    const isOwnerRow = assignment.role === 'owner';
    const isTenantRole = (TENANT_ADMIN_ROLES as readonly string[]).includes(assignment.role);
    const label = t('roles.assign.label', 'Role of {{username}}', { username: assignment.username });
    if (!canUpdate) {
      return <Text size="sm">{roleLabel(t, assignment.role as Role, assignment.customRoleName)}</Text>;
    }
    return (
      <NativeSelect
        aria-label={label}
        size="xs"
        miw={220}
        value={pending[assignment.userId] ?? current}
        disabled={assignment.userId in pending || (isOwnerRow && !mayTouchOwners)}
        error={rowErrors[assignment.userId]}
        onChange={(event) => handleChange(assignment, event.currentTarget.value)}
      >
        {!isTenantRole && assignment.role !== 'custom' ? (
          <option value={current} disabled>
            {roleLabel(t, assignment.role as Role, assignment.customRoleName)}
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
            {assignment.role === 'custom' &&
            !customRoles.some((role) => role.id === assignment.customRoleId) ? (
              <option value={current}>{assignment.customRoleName ?? names.custom}</option>
            ) : null}
          </optgroup>
        ) : null}
      </NativeSelect>
    );
  };

  const columns: DataTableColumn<RoleAssignment>[] = [
    { accessor: 'username', title: t('roles.assignColumns.username', 'Username'), noWrap: true },
    { accessor: 'firstname', title: t('roles.assignColumns.firstname', 'First name') },
    { accessor: 'lastname', title: t('roles.assignColumns.lastname', 'Last name') },
    { accessor: 'role', title: t('roles.assignColumns.role', 'Role'), render: roleSelect },
  ];

  const renderBody = () => {
    if (assignmentsQuery.isPending) {
      return <LoadingState label={t('roles.assign.loading', 'Loading administrators…')} />;
    }
    if (assignmentsQuery.isError && !assignmentsQuery.data) {
      return <ErrorState error={assignmentsQuery.error} onRetry={() => void assignmentsQuery.refetch()} />;
    }
    const page = assignmentsQuery.data;
    if (page.total === 0) {
      return (
        <EmptyState
          message={
            state.q.trim()
              ? t('roles.assign.noMatch', 'No administrators match your search.')
              : t('roles.assign.empty', 'No administrators yet.')
          }
        />
      );
    }
    return (
      <DataTable<RoleAssignment>
        withTableBorder
        borderRadius="sm"
        minHeight={160}
        records={page.items}
        columns={columns}
        idAccessor="userId"
        fetching={assignmentsQuery.isFetching}
        loadingText={t('roles.assign.loading', 'Loading administrators…')}
        noRecordsText={t('roles.assign.noMatch', 'No administrators match your search.')}
        page={state.page}
        onPageChange={(next) => onStateChange({ page: next })}
        totalRecords={page.total}
        recordsPerPage={state.pageSize}
        recordsPerPageOptions={[...ASSIGNMENT_PAGE_SIZES]}
        onRecordsPerPageChange={(size) =>
          onStateChange({ pageSize: size as RolesScreenState['pageSize'], page: 1 })
        }
        recordsPerPageLabel={t('roles.assign.pageSize', 'Administrators per page')}
        paginationText={({ from, to, totalRecords }) =>
          t('roles.assign.range', '{{from}}–{{to}} of {{total}}', { from, to, total: totalRecords })
        }
        getPaginationControlProps={(control) => ({
          'aria-label': {
            first: t('roles.assign.firstPage', 'First page'),
            last: t('roles.assign.lastPage', 'Last page'),
            previous: t('roles.assign.previousPage', 'Previous page'),
            next: t('roles.assign.nextPage', 'Next page'),
          }[control],
        })}
      />
    );
  };

  return (
    <Stack gap="md">
      <Row justify="space-between" align="flex-end" gap="md">
        <TextInput
          type="search"
          label={t('roles.assign.search', 'Search administrators')}
          placeholder={t('roles.assign.searchPlaceholder', 'Name or username')}
          value={searchText}
          onChange={(event) => {
            setSearchText(event.currentTarget.value);
            applySearch(event.currentTarget.value);
          }}
          w={{ base: '100%', sm: 320 }}
        />
        <Button
          variant="default"
          loading={exportMutation.isPending}
          onClick={() => exportMutation.mutate({ q: state.q.trim() || undefined })}
        >
          {t('roles.assign.export', 'Export CSV')}
        </Button>
      </Row>
      {renderBody()}
    </Stack>
  );
}
