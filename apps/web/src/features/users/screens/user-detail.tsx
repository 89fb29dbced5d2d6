import { Button } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { useDeleteUsers } from '../api/delete-users';
import { useGroupOptions } from '../api/get-group-options';
import { useUser } from '../api/get-user';
import { showSuccess } from '../api/mutation-toast';
import { useUpdateUser } from '../api/update-user';
import { DeleteUsersModal } from '../components/delete-users-modal';
import { UserDetails } from '../components/user-details';
import { UserForm, userToFormValues } from '../components/user-form';
import { isUserMissing, UserNotFound } from '../components/user-not-found';

/** `/users/:id`: one user, with Edit (same form as add), Copy and Delete. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const tenant = useWorkingTenant();
  const canUpdate = useCan('users:update');
  const canCreate = useCan('users:create');
  const canDelete = useCan('users:delete');

  const [isEditing, setEditing] = useState(false);
  const [isConfirmOpen, setConfirmOpen] = useState(false);
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
        actions={
          <>
            <Button component={Link} to="/users/list" variant="default">
              {t('users.backToList', 'Back to users')}
            </Button>
            {canCreate ? (
              <Button component={Link} to={`/users/${user.id}/copy`} variant="default">
                {t('users.detail.copy', 'Copy')}
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
      <UserDetails user={user} groupNames={groupNames} />
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
