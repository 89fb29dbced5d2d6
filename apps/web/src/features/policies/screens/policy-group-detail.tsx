import { Alert, Anchor, Button, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { PolicyGroup } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { isMissing } from '../../../lib/policy-errors';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { usePolicyGroup, useSavePolicyGroup } from '../api/policy-groups';
import { deviceLabel } from '../components/pickers';
import {
  EMPTY_POLICY_GROUP_FORM,
  PolicyGroupForm,
  policyGroupToFormValues,
} from '../components/policy-group-form';

/** The id of the "new policy group" address. */
export const NEW_ID = 'new';

/** The link back to the list. */
export function BackToPolicyGroups() {
  const { t } = useTranslation();
  return (
    <Button component={Link} to="/policy/policyGroups" variant="default">
      {t('policies.groups.back', 'Back to policy groups')}
    </Button>
  );
}

/** "Not found" of the detail and copy screens. */
export function PolicyGroupNotFound() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('policies.groups.notFoundTitle', 'Policy group not found')} />
      <EmptyState
        message={t('policies.groups.notFound', 'This policy group does not exist or was deleted.')}
        action={<BackToPolicyGroups />}
      />
    </>
  );
}

/** Where a policy group is used: the policies it carries and whom it applies to. */
function WhereUsed({ group }: { group: PolicyGroup }) {
  const { t } = useTranslation();
  const none = (
    <Text size="sm" c="dimmed">
      {t('policies.groups.none', 'None')}
    </Text>
  );
  return (
    <Paper withBorder p="md" radius="sm" component="section" aria-labelledby="policy-group-usage" maw={720}>
      <Title order={2} size="h5" id="policy-group-usage" mb="sm">
        {t('policies.groups.usageTitle', 'Where it is used')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <div>
          <Text size="xs" c="dimmed" fw={500}>
            {t('policies.groups.policies', 'Policies')}
          </Text>
          {group.policies.length === 0 ? (
            none
          ) : (
            <List size="sm">
              {group.policies.map((policy) => (
                <List.Item key={policy.id}>
                  <Anchor component={Link} to={`/policy/list?policy=${policy.id}`} size="sm">
                    {policy.name}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          )}
        </div>
        <div>
          <Text size="xs" c="dimmed" fw={500}>
            {t('policies.groups.appliesTo', 'Applies to')}
          </Text>
          {group.groups.length + group.users.length + group.devices.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('policies.groups.appliesToNobody', 'Nobody yet: assign user groups, users or devices.')}
            </Text>
          ) : (
            <>
              <Text size="sm" data-testid="policy-group-reach">
                {t('policies.groups.userCount', {
                  count: group.userCount,
                  defaultValue_one: '{{count, number}} user, assigned directly or through a user group.',
                  defaultValue_other: '{{count, number}} users, assigned directly or through a user group.',
                })}
              </Text>
              <List size="sm">
                {group.groups.map((g) => (
                  <List.Item key={g.id}>
                    <Anchor component={Link} to={`/groups/${g.id}`} size="sm">
                      {t('policies.groups.userGroupItem', 'User group {{name}}', { name: g.name })}
                    </Anchor>
                  </List.Item>
                ))}
                {group.users.map((user) => (
                  <List.Item key={user.id}>
                    <Anchor component={Link} to={`/users/${user.id}`} size="sm">
                      {user.username}
                    </Anchor>
                  </List.Item>
                ))}
                {group.devices.map((device) => (
                  <List.Item key={device.id}>
                    {t('policies.groups.deviceItem', 'Device {{name}}', { name: deviceLabel(device) })}
                  </List.Item>
                ))}
              </List>
            </>
          )}
        </div>
      </SimpleGrid>
    </Paper>
  );
}

/** `/policy/policyGroups/:id`: edit a policy group, or create one when `:id` is `new`. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const tenant = useWorkingTenant();
  const isNew = id === NEW_ID;
  const canCreate = useCan('policies:create');
  const copyAllowed = useConfigFlag('copyAllowed');
  const canUpdate = useCan('policies:update');
  const groupQuery = usePolicyGroup(tenant, id, !isNew);
  const saveMutation = useSavePolicyGroup(tenant, {
    onSuccess: (group) => {
      showSuccess(t('policies.groups.saved', 'Policy group {{name}} saved.', { name: group.name }));
      if (isNew) navigate(`/policy/policyGroups/${group.id}`, { replace: true });
    },
  });

  if (isNew) {
    return (
      <>
        <PageHeader
          title={t('policies.groups.newTitle', 'New policy group')}
          actions={<BackToPolicyGroups />}
        />
        {canCreate ? (
          <PolicyGroupForm
            initialValues={EMPTY_POLICY_GROUP_FORM}
            submitLabel={t('policies.groups.create', 'Add policy group')}
            onSubmit={(body) => saveMutation.mutateAsync({ id: null, body })}
            onCancel={() => navigate('/policy/policyGroups')}
          />
        ) : (
          <Alert color="yellow" variant="light" title={t('policies.notAllowed', 'Not available')}>
            {t('error.3', 'Your role does not allow this.')}
          </Alert>
        )}
      </>
    );
  }
  if (groupQuery.isPending)
    return <LoadingState label={t('policies.groups.loadingOne', 'Loading policy group…')} />;
  if (groupQuery.isError && isMissing(groupQuery.error)) return <PolicyGroupNotFound />;
  if (groupQuery.isError)
    return <ErrorState error={groupQuery.error} onRetry={() => void groupQuery.refetch()} />;
  const group = groupQuery.data;

  return (
    <>
      <PageHeader
        title={canUpdate ? t('policies.groups.editTitle', 'Edit {{name}}', { name: group.name }) : group.name}
        actions={
          <>
            <BackToPolicyGroups />
            {canCreate && copyAllowed ? (
              <Button component={Link} to={`/policy/policyGroups/${group.id}/copy`} variant="default">
                {t('policies.list.copy', 'Copy')}
              </Button>
            ) : null}
          </>
        }
      />
      <Stack gap="xl">
        <PolicyGroupForm
          key={group.updatedAt}
          initialValues={policyGroupToFormValues(group)}
          source={group}
          isReadOnly={!canUpdate}
          submitLabel={t('policies.groups.save', 'Save')}
          onSubmit={(body) => saveMutation.mutateAsync({ id: group.id, body })}
          onCancel={() => navigate('/policy/policyGroups')}
        />
        <WhereUsed group={group} />
      </Stack>
    </>
  );
}
