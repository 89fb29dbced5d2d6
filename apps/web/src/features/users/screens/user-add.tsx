import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useCreateUser } from '../api/create-user';
import { useGroupOptions } from '../api/get-group-options';
import { NotAllowed } from '../components/not-allowed';
import { UserForm } from '../components/user-form';

/** `/users/add`: a new end user. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tenant = useWorkingTenant();
  const canCreate = useCan('users:create');
  const groupsQuery = useGroupOptions(tenant);
  const createMutation = useCreateUser(tenant, {
    onSuccess: (user) => {
      showSuccess(t('users.add.done', 'User {{name}} added.', { name: user.fullname }));
      navigate(`/users/${user.id}`);
    },
  });

  const backLink = (
    <Button component={Link} to="/users/list" variant="default">
      {t('users.backToList', 'Back to users')}
    </Button>
  );
  if (!canCreate) {
    return (
      <>
        <PageHeader title={t('users.add.title', 'Add user')} actions={backLink} />
        <NotAllowed />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={t('users.add.title', 'Add user')}
        description={t(
          'users.add.description',
          'The user signs in to the Palisade client with this e-mail address.',
        )}
        actions={backLink}
      />
      <UserForm
        groupOptions={groupsQuery.data ?? []}
        isGroupsLoading={groupsQuery.isPending}
        isGroupsError={groupsQuery.isError}
        submitLabel={t('users.add.submit', 'Add user')}
        onSubmit={(input) => createMutation.mutateAsync(input)}
        onCancel={() => navigate('/users/list')}
      />
    </>
  );
}
