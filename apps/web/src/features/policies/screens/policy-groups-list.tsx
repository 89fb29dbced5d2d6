import { ActionIcon, Badge, Button, Group as Row, Table, Text, Tooltip } from '@mantine/core';
import type { PolicyGroup, PolicyTestFailure } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TestFailuresAlert } from '../../../components/policy/test-failures-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { policyTestFailures } from '../../../lib/policy-errors';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { useDeletePolicyGroups, usePolicyGroups } from '../api/policy-groups';
import { DeleteConfirmModal } from '../components/delete-confirm-modal';
import { CopyIcon, EditIcon, TrashIcon } from '../components/icons';
import { SimulateButton } from '../simulator';

/** `/policy/policyGroups`: the policy groups with their policies and assignments; add, edit, copy, delete. */
export function Component() {
  const { t, i18n } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('policies:create');
  const copyAllowed = useConfigFlag('copyAllowed');
  const canUpdate = useCan('policies:update');
  const canDelete = useCan('policies:delete');
  const groupsQuery = usePolicyGroups(tenant);
  const [toDelete, setToDelete] = useState<PolicyGroup | null>(null);
  const [failures, setFailures] = useState<PolicyTestFailure[] | null>(null);
  const deleteMutation = useDeletePolicyGroups(tenant, {
    onSuccess: () => {
      showSuccess(
        t('policies.groups.deleted', 'Policy group {{name}} deleted.', { name: toDelete?.name ?? '' }),
      );
      setToDelete(null);
    },
    onError: (error) => {
      const failed = policyTestFailures(error);
      if (failed) setFailures(failed);
      else showMutationError(t, error);
    },
  });
  const count = (n: number) => new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language).format(n);

  const renderBody = () => {
    if (groupsQuery.isPending)
      return <LoadingState label={t('policies.groups.loading', 'Loading policy groups…')} />;
    if (groupsQuery.isError)
      return <ErrorState error={groupsQuery.error} onRetry={() => void groupsQuery.refetch()} />;
    const groups = groupsQuery.data;
    if (groups.length === 0) {
      return (
        <EmptyState
          message={t(
            'policies.groups.empty',
            'No policy groups yet. Without one, every policy applies to everyone in the tenant.',
          )}
          action={
            canCreate ? (
              <Button component={Link} to="/policy/policyGroups/new">
                {t('policies.groups.add', 'Add policy group')}
              </Button>
            ) : undefined
          }
        />
      );
    }
    return (
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" highlightOnHover aria-label={t('policies.groups.title', 'Policy groups')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('policies.groups.name', 'Name')}</Table.Th>
              <Table.Th>{t('policies.groups.policies', 'Policies')}</Table.Th>
              <Table.Th ta="end">{t('policies.groups.userGroups', 'User groups')}</Table.Th>
              <Table.Th ta="end">{t('policies.groups.usersReached', 'Users (with group members)')}</Table.Th>
              <Table.Th ta="end">{t('policies.groups.deviceCount', 'Devices')}</Table.Th>
              <Table.Th ta="end">{t('policies.columns.actions', 'Actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.map((group) => (
              <Table.Tr key={group.id} data-testid="policy-group-row">
                <Table.Td>
                  <Text
                    component={Link}
                    to={`/policy/policyGroups/${group.id}`}
                    size="sm"
                    fw={500}
                    c="var(--mantine-color-anchor)"
                    td="underline"
                  >
                    {group.name}
                  </Text>
                  {group.description ? (
                    <Text size="xs" c="dimmed" lineClamp={1}>
                      {group.description}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  {group.policies.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      {t('policies.groups.noPolicies', 'No policies')}
                    </Text>
                  ) : (
                    <Row gap={4}>
                      {group.policies.map((policy) => (
                        <Badge
                          key={policy.id}
                          size="sm"
                          variant="light"
                          component={Link}
                          to={`/policy/list?policy=${policy.id}`}
                          style={{ cursor: 'pointer', textTransform: 'none' }}
                        >
                          {policy.name}
                        </Badge>
                      ))}
                    </Row>
                  )}
                </Table.Td>
                <Table.Td ta="end">{count(group.groups.length)}</Table.Td>
                <Table.Td ta="end">{count(group.userCount)}</Table.Td>
                <Table.Td ta="end">{count(group.devices.length)}</Table.Td>
                <Table.Td>
                  <Row gap={2} justify="flex-end" wrap="nowrap">
                    <Tooltip
                      label={canUpdate ? t('policies.list.edit', 'Edit') : t('policies.list.view', 'View')}
                    >
                      <ActionIcon
                        component={Link}
                        to={`/policy/policyGroups/${group.id}`}
                        variant="subtle"
                        aria-label={
                          canUpdate
                            ? t('policies.list.editLabel', 'Edit {{name}}', { name: group.name })
                            : t('policies.list.viewLabel', 'View {{name}}', { name: group.name })
                        }
                      >
                        <EditIcon />
                      </ActionIcon>
                    </Tooltip>
                    {canCreate && copyAllowed ? (
                      <Tooltip label={t('policies.list.copy', 'Copy')}>
                        <ActionIcon
                          component={Link}
                          to={`/policy/policyGroups/${group.id}/copy`}
                          variant="subtle"
                          aria-label={t('policies.list.copyLabel', 'Copy {{name}}', { name: group.name })}
                        >
                          <CopyIcon />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                    {canDelete ? (
                      <Tooltip label={t('policies.list.delete', 'Delete')}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('policies.list.deleteLabel', 'Delete {{name}}', { name: group.name })}
                          onClick={() => {
                            setFailures(null);
                            setToDelete(group);
                          }}
                        >
                          <TrashIcon />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                  </Row>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  };

  return (
    <>
      <PageHeader
        title={t('policies.groups.title', 'Policy groups')}
        description={t(
          'policies.groups.description',
          'A policy group carries policies to user groups, users and devices. A policy in no group applies to everyone.',
        )}
        actions={
          <>
            <SimulateButton />
            {canCreate ? (
              <Button component={Link} to="/policy/policyGroups/new">
                {t('policies.groups.add', 'Add policy group')}
              </Button>
            ) : null}
          </>
        }
      />
      {renderBody()}
      <DeleteConfirmModal
        opened={toDelete !== null}
        title={t('policies.groups.deleteTitle', 'Delete policy group?')}
        message={t(
          'policies.groups.deleteConfirm',
          'Policy group {{name}} will be deleted. Its policies then apply to whoever their other groups name, or to everyone.',
          { name: toDelete?.name ?? '' },
        )}
        isDeleting={deleteMutation.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() => toDelete && deleteMutation.mutate([toDelete.id])}
      >
        {failures ? <TestFailuresAlert failures={failures} /> : null}
      </DeleteConfirmModal>
    </>
  );
}
