import { Badge, Button, Tabs } from '@mantine/core';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { useDeleteUsers } from '../api/delete-users';
import { useGroupOptions } from '../api/get-group-options';
import { useUser } from '../api/get-user';
import { useSetUserStatus } from '../api/set-user-status';
import { useUpdateUser } from '../api/update-user';
import { DeleteUsersModal } from '../components/delete-users-modal';
import { UserDetails } from '../components/user-details';
import { UserForm, userToFormValues } from '../components/user-form';
import { isUserMissing, UserNotFound } from '../components/user-not-found';
import { UserPoliciesPanel } from '../components/user-policies-panel';
import { UserStatusModal } from '../components/user-status-modal';

/** A tab another area adds to the user's page (composed in app/screens, since features do not import each other). */
export interface UserPageTab {
  value: string;
  label: string;
  /** The panel, for the user the page shows. */
  render: (user: { id: string; username: string }) => ReactNode;
}

/** `/users/:id` on its own: the user's details and policies. The app adds devices and activity (user-page). */
export function Component() {
  return <UserDetail />;
}

/**
 * `/users/:id`: one user, with Edit (same form as add), Copy, Disable/Enable and Delete, and tabs: the details,
 * the policies that apply, then what other areas add (`extraTabs`). The tab is in the address (`?tab=`).
 */
export function UserDetail({ extraTabs = [] }: { extraTabs?: readonly UserPageTab[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const tenant = useWorkingTenant();
  const canUpdate = useCan('users:update');
  const canCreate = useCan('users:create');
  const copyAllowed = useConfigFlag('copyAllowed');
  const canDelete = useCan('users:delete');
  const canViewPolicies = useCan('policies:view');

  const [isEditing, setEditing] = useState(false);
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const [isStatusOpen, setStatusOpen] = useState(false);
  const userQuery = useUser(tenant, id);
  const groupsQuery = useGroupOptions(tenant);
  const groupNames = useMemo(
    () => new Map((groupsQuery.data ?? []).map((group) => [group.id, group.name])),
    [groupsQuery.data],
  );

  const updateMutation = useUpdateUser(tenant, id, {
    onSuccess: () => {
      showSuccess(t('users.edit.done', 'Changes saved.'));
      setEditing(false);
    },
  });
  const statusMutation = useSetUserStatus(tenant, id, {
    onSuccess: (user) => {
      setStatusOpen(false);
      showSuccess(
        user.status === 'disabled'
          ? t('users.status.disabled', 'User disabled.')
          : t('users.status.enabled', 'User enabled.'),
      );
    },
  });
  const deleteMutation = useDeleteUsers(tenant, {
    onSuccess: () => {
      setConfirmOpen(false);
      showSuccess(t('users.delete.done', { count: 1, defaultValue_one: 'User deleted.' }));
      navigate('/users/list');
    },
  });

  if (userQuery.isPending) return <LoadingState label={t('users.detail.loading', 'Loading user…')} />;
  // A deleted user keeps its cached data until the refetch says 404, so the error is checked first.
  if (userQuery.isError && isUserMissing(userQuery.error)) return <UserNotFound />;
  if (userQuery.isError)
    return <ErrorState error={userQuery.error} onRetry={() => void userQuery.refetch()} />;
  const user = userQuery.data;
  const tabs: UserPageTab[] = [
    {
      value: 'details',
      label: t('users.tabs.details', 'Details'),
      render: () => <UserDetails user={user} groupNames={groupNames} />,
    },
    ...(canViewPolicies
      ? [
          {
            value: 'policies',
            label: t('users.tabs.policies', 'Policies'),
            render: () => <UserPoliciesPanel user={user} />,
          },
        ]
      : []),
    ...extraTabs,
  ];

  if (isEditing) {
    return (
      <>
        <PageHeader
          title={t('users.edit.title', 'Edit {{name}}', { name: user.fullname })}
          description={user.username}
        />
        <UserForm
          initialValues={userToFormValues(user)}
          groupOptions={groupsQuery.data ?? []}
          isGroupsLoading={groupsQuery.isPending}
          isGroupsError={groupsQuery.isError}
          submitLabel={t('users.edit.submit', 'Save')}
          onSubmit={(input) => updateMutation.mutateAsync(input)}
          onCancel={() => setEditing(false)}
        />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={user.fullname}
        description={user.username}
        badge={
          user.status === 'disabled' ? (
            <Badge color="red" variant="light">
              {t('users.status.disabledBadge', 'Disabled')}
            </Badge>
          ) : undefined
        }
        actions={
          <>
            <Button component={Link} to="/users/list" variant="default">
              {t('users.backToList', 'Back to users')}
            </Button>
            {canCreate && copyAllowed ? (
              <Button component={Link} to={`/users/${user.id}/copy`} variant="default">
                {t('users.detail.copy', 'Copy')}
              </Button>
            ) : null}
            {canUpdate ? (
              <Button variant="default" onClick={() => setStatusOpen(true)}>
                {user.status === 'active'
                  ? t('users.status.disable', 'Disable')
                  : t('users.status.enable', 'Enable')}
              </Button>
            ) : null}
            {canUpdate ? (
              <Button onClick={() => setEditing(true)}>{t('users.detail.edit', 'Edit')}</Button>
            ) : null}
            {canDelete ? (
              <Button color="red" variant="light" onClick={() => setConfirmOpen(true)}>
                {t('users.detail.delete', 'Delete')}
              </Button>
            ) : null}
          </>
        }
      />
      <Tabs
        value={
          tabs.some((tab) => tab.value === searchParams.get('tab')) ? searchParams.get('tab') : 'details'
        }
        onChange={(tab) =>
          setSearchParams(tab && tab !== 'details' ? { tab } : {}, {
            replace: true,
            preventScrollReset: true,
          })
        }
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {tabs.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Panel key={tab.value} value={tab.value}>
            {tab.render(user)}
          </Tabs.Panel>
        ))}
      </Tabs>
      <UserStatusModal
        user={user}
        opened={isStatusOpen}
        isSaving={statusMutation.isPending}
        onClose={() => setStatusOpen(false)}
        onConfirm={(reason) =>
          statusMutation.mutate(
            user.status === 'active' ? { status: 'disabled', reason } : { status: 'active' },
          )
        }
      />
      <DeleteUsersModal
        opened={isConfirmOpen}
        users={[user]}
        isDeleting={deleteMutation.isPending}
        onClose={() => setConfirmOpen(false)}
        onConfirm={() => deleteMutation.mutate([user.id])}
      />
    </>
  );
}
