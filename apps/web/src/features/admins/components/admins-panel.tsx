import 'mantine-datatable/styles.css';
import { Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { ADMIN_STATUSES, Admin, Role } from '@palisade/contracts';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ui/query-state';
import { useCan, useSession, useWorkingTenant } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { builtInRoleNames } from '../../../lib/role-names';
import { useAdmins } from '../api/get-admins';
import { useRoleChoices } from '../api/get-role-choices';
import { isLastOwnerError, ownerRuleToast } from '../api/owner-rule';
import { useRemoveAdmin } from '../api/remove-admin';
import { useSuspendAdmin } from '../api/suspend-admin';
import { type AdminAction, ConfirmAdminModal } from './confirm-admin-modal';
import { InviteAdminModal, OWNER_MAKERS } from './invite-admin-modal';

/** Administrators per page. */
export const ADMINS_PAGE_SIZE = 10;

/** How long the search waits after the last keystroke before it asks the server. */
export const ADMINS_SEARCH_DEBOUNCE_MS = 300;

type AdminStatus = (typeof ADMIN_STATUSES)[number];

const STATUS_COLORS: Record<AdminStatus, string> = { invited: 'blue', active: 'green', suspended: 'red' };

/** Where the list is: its search, page and page size. */
export interface AdminsListPosition {
  q: string;
  /** 1-based. */
  page: number;
  pageSize: number;
}

/** Props of {@link AdminsPanel}; all optional: alone, it keeps its own position and shows roles as text. */
export interface AdminsPanelProps {
  /** The list's position, when the caller keeps it (in the address); with {@link onPositionChange}. */
  position?: AdminsListPosition;
  onPositionChange?: (patch: Partial<AdminsListPosition>, options?: { replace?: boolean }) => void;
  /** Page sizes to offer; none: one fixed size. */
  pageSizes?: readonly number[];
  /** The role cell of a row (the roles feature's role select, composed in by the roles page). */
  renderRole?: (admin: Admin) => ReactNode;
  /** More actions beside the search, for what it finds (the role assignments' CSV export). */
  toolbar?: (q: string) => ReactNode;
}

/**
 * The tenant's administrators (usertype 1): a server-paged, searchable list with their role and status; invite
 * by e-mail, suspend or reinstate, and remove — each offered only to a role that may do it (the server checks
 * again, and refuses to suspend or remove the last owner).
 */
export function AdminsPanel({
  position: givenPosition,
  onPositionChange,
  pageSizes,
  renderRole,
  toolbar,
}: AdminsPanelProps = {}) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const { session } = useSession();
  const canInvite = useCan('roles:create');
  const canUpdate = useCan('roles:update');
  const canRemove = useCan('roles:delete');
  const names = builtInRoleNames(t);

  const [ownPosition, setOwnPosition] = useState<AdminsListPosition>({
    q: '',
    page: 1,
    pageSize: ADMINS_PAGE_SIZE,
  });
  const position = givenPosition ?? ownPosition;
  const changePosition =
    onPositionChange ??
    ((patch: Partial<AdminsListPosition>) => setOwnPosition((current) => ({ ...current, ...patch })));
  const { page, pageSize } = position;
  const q = position.q.trim();

  // The box shows what is typed at once; the list (and the address) follows after a pause.
  const [searchText, setSearchText] = useState(position.q);
  const applySearch = useDebouncedCallback((text: string) => {
    changePosition({ q: text, page: 1 }, { replace: true });
  }, ADMINS_SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    setSearchText((text) => (text.trim() === position.q.trim() ? text : position.q));
  }, [position.q]);

  const admins = useAdmins(tenant, {
    limit: pageSize,
    offset: (page - 1) * pageSize,
    ...(q ? { q } : {}),
  });
  const roleChoices = useRoleChoices(tenant);
  const customRoles = roleChoices.data?.custom ?? [];

  const [isInviting, setIsInviting] = useState(false);
  const [target, setTarget] = useState<{ admin: Admin; action: AdminAction } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const closeConfirm = () => {
    setTarget(null);
    setRefusal(null);
  };
  const handleRefusal = (error: unknown, title: string) => {
    if (isLastOwnerError(error)) setRefusal(t('error.17', 'The last owner cannot be removed.'));
    else {
      closeConfirm();
      showMutationError(t, error, ownerRuleToast(t, title));
    }
  };

  const suspend = useSuspendAdmin(tenant, {
    onSuccess: (admin) => {
      showSuccess(
        admin.status === 'suspended'
          ? t('admins.suspend.done', '{{name}} is suspended.', { name: admin.username })
          : t('admins.reinstate.done', '{{name}} is reinstated.', { name: admin.username }),
      );
      closeConfirm();
    },
    onError: (error, { suspended }) =>
      handleRefusal(
        error,
        suspended
          ? t('admins.suspend.failed', 'The administrator was not suspended')
          : t('admins.reinstate.failed', 'The administrator was not reinstated'),
      ),
  });
  const remove = useRemoveAdmin(tenant, {
    onSuccess: () => {
      if (target)
        showSuccess(t('admins.remove.done', '{{name}} was removed.', { name: target.admin.username }));
      closeConfirm();
    },
    onError: (error) => handleRefusal(error, t('admins.remove.failed', 'The administrator was not removed')),
  });

  const statusLabels: Record<AdminStatus, string> = {
    invited: t('admins.status.invited', 'Invited'),
    active: t('admins.status.active', 'Active'),
    suspended: t('admins.status.suspended', 'Suspended'),
  };
  const roleText = (admin: Admin) => {
    if (admin.role === 'custom') {
      const custom = customRoles.find((role) => role.id === admin.customRoleId);
      return custom ? `${names.custom}: ${custom.name}` : names.custom;
    }
    return names[admin.role as Role] ?? admin.role;
  };

  const columns: DataTableColumn<Admin>[] = [
    {
      accessor: 'name',
      title: t('admins.column.name', 'Name'),
      render: (admin) => `${admin.firstname} ${admin.lastname}`.trim(),
    },
    { accessor: 'username', title: t('admins.column.email', 'E-mail'), noWrap: true },
    { accessor: 'role', title: t('admins.column.role', 'Role'), render: renderRole ?? roleText },
    {
      accessor: 'status',
      title: t('admins.column.status', 'Status'),
      render: (admin) => (
        <Badge color={STATUS_COLORS[admin.status]} variant="light" radius="sm">
          {statusLabels[admin.status]}
        </Badge>
      ),
    },
  ];
  if (canUpdate || canRemove) {
    columns.push({
      accessor: 'actions',
      title: t('admins.column.actions', 'Actions'),
      textAlign: 'right',
      render: (admin) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {canUpdate && admin.status === 'suspended' ? (
            <Button
              size="compact-sm"
              variant="subtle"
              loading={suspend.isPending && suspend.variables?.id === admin.id}
              onClick={() => suspend.mutate({ id: admin.id, suspended: false })}
              aria-label={t('admins.reinstate.label', 'Reinstate {{name}}', { name: admin.username })}
            >
              {t('admins.reinstate.button', 'Reinstate')}
            </Button>
          ) : null}
          {canUpdate && admin.status !== 'suspended' ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color="orange"
              onClick={() => setTarget({ admin, action: 'suspend' })}
              aria-label={t('admins.suspend.label', 'Suspend {{name}}', { name: admin.username })}
            >
              {t('admins.suspend.button', 'Suspend')}
            </Button>
          ) : null}
          {canRemove ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={() => setTarget({ admin, action: 'remove' })}
              aria-label={t('admins.remove.label', 'Remove {{name}}', { name: admin.username })}
            >
              {t('admins.remove.button', 'Remove')}
            </Button>
          ) : null}
        </Group>
      ),
    });
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="admins-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Title order={2} size="h3" id="admins-title">
              {t('admins.title', 'Administrators')}
            </Title>
            <Text size="sm" c="dimmed">
              {t(
                'admins.description',
                'People who administer this tenant. Invited administrators choose their password from the e-mailed link.',
              )}
            </Text>
          </Stack>
          {canInvite ? (
            <Button onClick={() => setIsInviting(true)}>
              {t('admins.invite.button', 'Invite administrator')}
            </Button>
          ) : null}
        </Group>
        <Group justify="space-between" align="flex-end" gap="md">
          <TextInput
            type="search"
            label={t('admins.search', 'Search administrators')}
            placeholder={t('admins.searchPlaceholder', 'Name or e-mail')}
            value={searchText}
            onChange={(event) => {
              setSearchText(event.currentTarget.value);
              applySearch(event.currentTarget.value);
            }}
            w={{ base: '100%', sm: 320 }}
          />
          {toolbar?.(q)}
        </Group>
        {admins.isError && !admins.data ? (
          <ErrorState error={admins.error} onRetry={() => void admins.refetch()} />
        ) : (
          <DataTable<Admin>
            withTableBorder
            borderRadius="sm"
            minHeight={admins.data?.items.length ? undefined : 160}
            records={admins.data?.items ?? []}
            columns={columns}
            idAccessor="id"
            fetching={admins.isFetching}
            loadingText={t('admins.loading', 'Loading administrators…')}
            totalRecords={admins.data?.total ?? 0}
            page={page}
            onPageChange={(next) => changePosition({ page: next })}
            {...(pageSizes
              ? {
                  recordsPerPage: pageSize,
                  recordsPerPageOptions: [...pageSizes],
                  onRecordsPerPageChange: (size: number) => changePosition({ pageSize: size, page: 1 }),
                  recordsPerPageLabel: t('admins.pageSize', 'Administrators per page'),
                }
              : { recordsPerPage: pageSize })}
            noRecordsText={
              q
                ? t('admins.noMatch', 'No administrators match your search.')
                : t('admins.empty', 'No administrators yet.')
            }
            paginationText={({ from, to, totalRecords }) =>
              t('admins.pagination', '{{from}}–{{to}} of {{total}}', { from, to, total: totalRecords })
            }
            getPaginationControlProps={(control) => ({
              'aria-label': {
                first: t('admins.firstPage', 'First page'),
                last: t('admins.lastPage', 'Last page'),
                previous: t('admins.previousPage', 'Previous page'),
                next: t('admins.nextPage', 'Next page'),
              }[control],
            })}
            aria-label={t('admins.title', 'Administrators')}
          />
        )}
      </Stack>
      <InviteAdminModal
        opened={isInviting}
        onClose={() => setIsInviting(false)}
        tenant={tenant}
        customRoles={customRoles}
        mayInviteOwner={session ? OWNER_MAKERS.includes(session.role) : false}
      />
      <ConfirmAdminModal
        target={target}
        selfId={session?.userid}
        isWorking={suspend.isPending || remove.isPending}
        error={refusal}
        onClose={closeConfirm}
        onConfirm={() => {
          if (!target) return;
          if (target.action === 'remove') remove.mutate(target.admin.id);
          else suspend.mutate({ id: target.admin.id, suspended: true });
        }}
      />
    </Card>
  );
}
