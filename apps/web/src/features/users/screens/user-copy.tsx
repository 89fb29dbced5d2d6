import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useCreateUser } from '../api/create-user';
import { useGroupOptions } from '../api/get-group-options';
import { useUser } from '../api/get-user';
import { NotAllowed } from '../components/not-allowed';
import { copyToFormValues, UserForm } from '../components/user-form';
import { isUserMissing, UserNotFound } from '../components/user-not-found';

/** The copy variant of `/users/:id/:type` (spec §2); other types are not screens. */
export const COPY_TYPE = 'copy';

/**
 * `/users/:id/copy`: a new user pre-filled from an existing one. Names, groups and access flags are copied;
 * the username, e-mail and SUCI identify a person or a SIM and start empty.
 */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '', type } = useParams();
  const tenant = useWorkingTenant();
  const canCreate = useCan('users:create');
  const sourceQuery = useUser(tenant, id);
  const groupsQuery = useGroupOptions(tenant);
  const createMutation = useCreateUser(tenant, {
    onSuccess: (user) => {
      showSuccess(t('users.add.done', 'User {{name}} added.', { name: user.fullname }));
      navigate(`/users/${user.id}`);
    },
  });

  if (type !== COPY_TYPE) return <UserNotFound />;
  const backLink = (
    <Button component={Link} to={`/users/${id}`} variant="default">
      {t('users.copy.back', 'Back to the user')}
    </Button>
  );
  if (!canCreate) {
    return (
      <>
        <PageHeader title={t('users.copy.title', 'Copy user')} actions={backLink} />
        <NotAllowed />
      </>
    );
  }
  if (sourceQuery.isPending) return <LoadingState label={t('users.detail.loading', 'Loading user…')} />;
  if (sourceQuery.isError && isUserMissing(sourceQuery.error)) return <UserNotFound />;
  if (sourceQuery.isError) {
    return <ErrorState error={sourceQuery.error} onRetry={() => void sourceQuery.refetch()} />;
  }
  const source = sourceQuery.data;

  return (
    <>
      <PageHeader
        title={t('users.copy.title', 'Copy user')}
        description={t('users.copy.description', 'A new user with the groups and access of {{name}}.', {
          name: source.fullname,
        })}
        actions={backLink}
      />
      <UserForm
        initialValues={copyToFormValues(source)}
        groupOptions={groupsQuery.data ?? []}
        isGroupsLoading={groupsQuery.isPending}
        isGroupsError={groupsQuery.isError}
        submitLabel={t('users.add.submit', 'Add user')}
        onSubmit={(input) => createMutation.mutateAsync(input)}
        onCancel={() => navigate(`/users/${id}`)}
      />
    </>
  );
}
