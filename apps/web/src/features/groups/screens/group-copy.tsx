import { Button, Checkbox } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useCopyGroup } from '../api/copy-group';
import { useGroup } from '../api/get-group';
import { GroupForm } from '../components/group-form';
import { GroupNotFound, isGroupMissing, NotAllowed } from '../components/group-not-found';

/** The copy variant of `/groups/:id/:type` (spec §2); other types are not screens. */
export const COPY_TYPE = 'copy';

/**
 * `/groups/:id/copy`: a new group pre-filled from an existing one (its name marked as a copy, since names are
 * unique), and — unless unticked — with the same members; the server copies both in one transaction.
 */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '', type } = useParams();
  const tenant = useWorkingTenant();
  const canCreate = useCan('groups:create');
  const canUpdate = useCan('groups:update');
  const sourceQuery = useGroup(tenant, id);
  const [withMembers, setWithMembers] = useState(true);
  const copyMutation = useCopyGroup(tenant, id, {
    onSuccess: (group) => {
      showSuccess(t('groups.add.done', 'Group {{name}} added.', { name: group.name }));
      navigate(`/groups/${group.id}`);
    },
  });

  if (type !== COPY_TYPE) return <GroupNotFound />;
  const backLink = (
    <Button component={Link} to={`/groups/${id}`} variant="default">
      {t('groups.copy.back', 'Back to the group')}
    </Button>
  );
  if (!canCreate) {
    return (
      <>
        <PageHeader title={t('groups.copy.title', 'Copy group')} actions={backLink} />
        <NotAllowed />
      </>
    );
  }
  if (sourceQuery.isPending) return <LoadingState label={t('groups.detail.loading', 'Loading group…')} />;
  if (sourceQuery.isError && isGroupMissing(sourceQuery.error)) return <GroupNotFound />;
  if (sourceQuery.isError) {
    return <ErrorState error={sourceQuery.error} onRetry={() => void sourceQuery.refetch()} />;
  }
  const source = sourceQuery.data;
  // Bringing the members along needs groups:update too (the server checks it); without it the copy starts empty.
  const canCopyMembers = canUpdate && source.memberCount > 0;

  return (
    <>
      <PageHeader
        title={t('groups.copy.title', 'Copy group')}
        description={t('groups.copy.description', 'A new group based on {{name}}.', { name: source.name })}
        actions={backLink}
      />
      <GroupForm
        initialValues={{
          name: t('groups.copy.name', '{{name}} (copy)', { name: source.name }),
          description: source.description,
        }}
        submitLabel={t('groups.add.submit', 'Add group')}
        onSubmit={(body) => copyMutation.mutateAsync({ body, withMembers: canCopyMembers && withMembers })}
        onCancel={() => navigate(`/groups/${id}`)}
      >
        {canCopyMembers ? (
          <Checkbox
            label={t('groups.copy.withMembers', {
              count: source.memberCount,
              defaultValue_one: 'Also add its {{count}} member',
              defaultValue_other: 'Also add its {{count}} members',
            })}
            checked={withMembers}
            onChange={(event) => setWithMembers(event.currentTarget.checked)}
          />
        ) : null}
      </GroupForm>
    </>
  );
}
