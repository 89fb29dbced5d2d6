import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useCreateGroup } from '../api/create-group';
import { GroupForm } from '../components/group-form';
import { BackToGroups, NotAllowed } from '../components/group-not-found';

/** `/users/groups/add`: a new group; members are added on the group's page. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tenant = useWorkingTenant();
  const canCreate = useCan('groups:create');
  const createMutation = useCreateGroup(tenant, {
    onSuccess: (group) => {
      showSuccess(t('groups.add.done', 'Group {{name}} added.', { name: group.name }));
      navigate(`/groups/${group.id}`);
    },
  });

  if (!canCreate) {
    return (
      <>
        <PageHeader title={t('groups.add.title', 'Add group')} actions={<BackToGroups />} />
        <NotAllowed />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={t('groups.add.title', 'Add group')}
        description={t('groups.add.description', 'Add members on the group’s page once it exists.')}
        actions={<BackToGroups />}
      />
      <GroupForm
        submitLabel={t('groups.add.submit', 'Add group')}
        onSubmit={(input) => createMutation.mutateAsync(input)}
        onCancel={() => navigate('/users/groups')}
      />
    </>
  );
}
