import { Box, Button, Paper, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format-time';
import { showSuccess } from '../../../lib/mutation-toast';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { useDeleteGroups } from '../api/delete-groups';
import { useGroup } from '../api/get-group';
import { useUpdateGroup } from '../api/update-group';
import { DeleteGroupsModal } from '../components/delete-groups-modal';
import { GroupForm, groupToFormValues } from '../components/group-form';
import { GroupMembers } from '../components/group-members';
import { BackToGroups, GroupNotFound, isGroupMissing } from '../components/group-not-found';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Box component="dd" m={0} fz="sm">
        {children}
      </Box>
    </div>
  );
}

/** `/groups/:id`: one group — edit its name and description, manage its members, copy or delete it. */
export function Component() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const tenant = useWorkingTenant();
  const canUpdate = useCan('groups:update');
  const canCreate = useCan('groups:create');
  const copyAllowed = useConfigFlag('copyAllowed');
  const canDelete = useCan('groups:delete');

  const [isEditing, setEditing] = useState(false);
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const groupQuery = useGroup(tenant, id);
  const updateMutation = useUpdateGroup(tenant, id, {
    onSuccess: () => {
      showSuccess(t('groups.edit.done', 'Changes saved.'));
      setEditing(false);
    },
  });
  const deleteMutation = useDeleteGroups(tenant, {
    onSuccess: () => {
      setConfirmOpen(false);
      showSuccess(t('groups.delete.done', { count: 1, defaultValue_one: 'Group deleted.' }));
      navigate('/users/groups');
    },
  });

  if (groupQuery.isPending) return <LoadingState label={t('groups.detail.loading', 'Loading group…')} />;
  // A deleted group keeps its cached data until the refetch says 404, so the error is checked first.
  if (groupQuery.isError && isGroupMissing(groupQuery.error)) return <GroupNotFound />;
  if (groupQuery.isError) {
    return <ErrorState error={groupQuery.error} onRetry={() => void groupQuery.refetch()} />;
  }
  const group = groupQuery.data;
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const dateTime = (iso: string) => formatDateTime(iso, locale);

  return (
    <>
      {isEditing ? (
        <>
          <PageHeader title={t('groups.edit.title', 'Edit {{name}}', { name: group.name })} />
          <GroupForm
            initialValues={groupToFormValues(group)}
            submitLabel={t('groups.edit.submit', 'Save')}
            onSubmit={(input) => updateMutation.mutateAsync(input)}
            onCancel={() => setEditing(false)}
          />
        </>
      ) : (
        <>
          <PageHeader
            title={group.name}
            description={group.description || undefined}
            actions={
              <>
                <BackToGroups />
                {canCreate && copyAllowed ? (
                  <Button component={Link} to={`/groups/${group.id}/copy`} variant="default">
                    {t('groups.detail.copy', 'Copy')}
                  </Button>
                ) : null}
                {canUpdate ? (
                  <Button onClick={() => setEditing(true)}>{t('groups.detail.edit', 'Edit')}</Button>
                ) : null}
                {canDelete ? (
                  <Button color="red" variant="light" onClick={() => setConfirmOpen(true)}>
                    {t('groups.detail.delete', 'Delete')}
                  </Button>
                ) : null}
              </>
            }
          />
          <Paper withBorder p="lg" radius="sm" maw={900}>
            <SimpleGrid component="dl" cols={{ base: 1, sm: 3 }} spacing="lg" m={0}>
              <Item label={t('groups.columns.memberCount', 'Members')}>
                {new Intl.NumberFormat(locale).format(group.memberCount)}
              </Item>
              <Item label={t('groups.columns.createdAt', 'Created')}>{dateTime(group.createdAt)}</Item>
              <Item label={t('groups.detail.updatedAt', 'Last changed')}>{dateTime(group.updatedAt)}</Item>
            </SimpleGrid>
          </Paper>
        </>
      )}
      <GroupMembers groupId={group.id} canEdit={canUpdate} />
      <DeleteGroupsModal
        opened={isConfirmOpen}
        groups={[group]}
        isDeleting={deleteMutation.isPending}
        onClose={() => setConfirmOpen(false)}
        onConfirm={() => deleteMutation.mutate([group.id])}
      />
    </>
  );
}
