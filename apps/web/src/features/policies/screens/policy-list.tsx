import { Button, Menu, Stack, Tabs, Text, Title } from '@mantine/core';
import {
  POLICY_LISTS_BY_EVALUATION,
  POLICY_TYPES,
  type PolicyList,
  type PolicySummary,
  type PolicyTestFailure,
  type PolicyType,
} from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { TestFailuresAlert } from '../../../components/policy/test-failures-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { policyTestFailures } from '../../../lib/policy-errors';
import { useConfigFlag } from '../../../lib/tenant-flags';
import {
  useCopyPolicy,
  useDeletePolicies,
  usePolicies,
  useReorderPolicies,
  useSetPolicyEnabled,
} from '../api/policies';
import { DeleteConfirmModal } from '../components/delete-confirm-modal';
import { ChevronIcon } from '../components/icons';
import { usePolicyTypeLabels } from '../components/labels';
import { PolicyEditor } from '../components/policy-editor';
import { PolicyTable } from '../components/policy-table';
import { PolicyTestsPanel } from '../components/policy-tests-panel';
import { SimulateButton } from '../simulator';

/** The type a new policy of each list gets. */
const LIST_TYPE: Record<PolicyList, PolicyType> = { qos: 'qos', user: 'other', device: 'route' };

/**
 * `/policy/list`: the three ordered policy lists of spec §3 in the order they are evaluated (user and device
 * policies, then the QoS policies that classify what they let through) with reorder by
 * drag or keyboard, enable switches, copy and delete; the policy editor opens in a drawer for
 * `?policy=<id>` or `?policy=new&type=<type>`, and the policy tests sit in their own tab (`?tab=tests`).
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const [searchParams, setSearchParams] = useSearchParams();
  const canCreate = useCan('policies:create');
  const copyAllowed = useConfigFlag('copyAllowed');
  const canUpdate = useCan('policies:update');
  const canDelete = useCan('policies:delete');
  const typeLabels = usePolicyTypeLabels();
  const policiesQuery = usePolicies(tenant);
  const [orders, setOrders] = useState<Partial<Record<PolicyList, string[]>>>({});
  const [failures, setFailures] = useState<PolicyTestFailure[] | null>(null);
  const [toDelete, setToDelete] = useState<PolicySummary | null>(null);
  const [deleteFailures, setDeleteFailures] = useState<PolicyTestFailure[] | null>(null);

  const tab = searchParams.get('tab') === 'tests' ? 'tests' : 'policies';
  const editorId = searchParams.get('policy');
  const typeParam = searchParams.get('type');
  const newType: PolicyType = POLICY_TYPES.includes(typeParam as PolicyType)
    ? (typeParam as PolicyType)
    : 'other';
  const isNewEditor = editorId === 'new';

  const setParams = (change: (params: URLSearchParams) => void) =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        change(next);
        return next;
      },
      { replace: false },
    );
  const editHref = (policy: PolicySummary) => {
    const next = new URLSearchParams(searchParams);
    next.set('policy', policy.id);
    next.delete('type');
    return `?${next.toString()}`;
  };

  const handleFailure = (error: unknown) => {
    const failed = policyTestFailures(error);
    if (failed) setFailures(failed);
    else showMutationError(t, error);
  };

  const reorderMutation = useReorderPolicies(tenant, {
    onSuccess: () => setOrders({}),
    onError: (error) => {
      // Back to the order the server keeps.
      setOrders({});
      handleFailure(error);
    },
  });
  const enabledMutation = useSetPolicyEnabled(tenant, {
    onSuccess: ({ policy }) =>
      showSuccess(
        policy.enabled
          ? t('policies.list.enabledDone', 'Policy {{name}} enabled.', { name: policy.name })
          : t('policies.list.disabledDone', 'Policy {{name}} disabled.', { name: policy.name }),
      ),
    onError: handleFailure,
  });
  const copyMutation = useCopyPolicy(tenant, {
    onSuccess: ({ policy }) =>
      showSuccess(t('policies.list.copied', 'Copied as {{name}} (disabled).', { name: policy.name })),
    onError: handleFailure,
  });
  const deleteMutation = useDeletePolicies(tenant, {
    onSuccess: () => {
      showSuccess(t('policies.list.deleted', 'Policy {{name}} deleted.', { name: toDelete?.name ?? '' }));
      if (toDelete && editorId === toDelete.id) setParams((params) => params.delete('policy'));
      setToDelete(null);
    },
    onError: (error) => {
      const failed = policyTestFailures(error);
      if (failed) setDeleteFailures(failed);
      else showMutationError(t, error);
    },
  });

  const handleReorder = (list: PolicyList, ids: string[]) => {
    setFailures(null);
    setOrders((previous) => ({ ...previous, [list]: ids }));
    reorderMutation.mutate({ list, ids });
  };

  const sectionTitles: Record<PolicyList, string> = {
    qos: t('policies.lists.qos', 'QoS policies'),
    user: t('policies.lists.user', 'User policies'),
    device: t('policies.lists.device', 'Device policies'),
  };
  const sectionHints: Record<PolicyList, string> = {
    qos: t(
      'policies.lists.qosHint',
      'Classify traffic into QoS classes; the first matching rule sets the class.',
    ),
    user: t('policies.lists.userHint', 'Decide what users may reach; evaluated from the top.'),
    device: t('policies.lists.deviceHint', 'Route rules for devices and gateways; evaluated from the top.'),
  };

  const renderLists = () => {
    if (policiesQuery.isPending)
      return <LoadingState label={t('policies.list.loading', 'Loading policies…')} />;
    if (policiesQuery.isError) {
      return <ErrorState error={policiesQuery.error} onRetry={() => void policiesQuery.refetch()} />;
    }
    const lists = policiesQuery.data;
    return (
      <Stack gap="xl">
        {POLICY_LISTS_BY_EVALUATION.map((list) => {
          const byId = new Map(lists[list].map((policy) => [policy.id, policy]));
          const order = orders[list];
          const shown =
            order && order.length === lists[list].length && order.every((id) => byId.has(id))
              ? order.map((id) => byId.get(id) as PolicySummary)
              : lists[list];
          const headingId = `policy-list-${list}`;
          return (
            <section key={list} aria-labelledby={headingId}>
              <Title order={2} size="h4" id={headingId}>
                {sectionTitles[list]}
              </Title>
              <Text size="sm" c="dimmed" mb="xs">
                {sectionHints[list]}
              </Text>
              {shown.length === 0 ? (
                <EmptyState
                  message={t('policies.list.empty', 'No policies in this list yet.')}
                  action={
                    canCreate ? (
                      <Button
                        variant="light"
                        size="xs"
                        onClick={() =>
                          setParams((params) => {
                            params.set('policy', 'new');
                            params.set('type', LIST_TYPE[list]);
                          })
                        }
                      >
                        {t('policies.list.addTo', 'Add {{type}}', { type: typeLabels[LIST_TYPE[list]] })}
                      </Button>
                    ) : undefined
                  }
                />
              ) : (
                <PolicyTable
                  label={sectionTitles[list]}
                  policies={shown}
                  canUpdate={canUpdate}
                  canCopy={canCreate && copyAllowed}
                  canDelete={canDelete}
                  isBusy={reorderMutation.isPending}
                  editHref={editHref}
                  onReorder={(ids) => handleReorder(list, ids)}
                  onToggleEnabled={(policy, enabled) => {
                    setFailures(null);
                    enabledMutation.mutate({ id: policy.id, enabled });
                  }}
                  onCopy={(policy) => {
                    setFailures(null);
                    copyMutation.mutate({
                      id: policy.id,
                      name: t('policies.list.copyName', 'Copy of {{name}}', { name: policy.name }).slice(
                        0,
                        100,
                      ),
                    });
                  }}
                  onDelete={(policy) => {
                    setDeleteFailures(null);
                    setToDelete(policy);
                  }}
                />
              )}
            </section>
          );
        })}
      </Stack>
    );
  };

  return (
    <>
      <PageHeader
        title={t('policies.list.title', 'Policies')}
        description={t(
          'policies.list.description',
          'Rules are decided layer by layer (DNS, network, HTTP, then QoS); inside a layer the first match by precedence wins.',
        )}
        actions={
          <>
            <SimulateButton />
            {canCreate ? (
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button rightSection={<ChevronIcon />}>{t('policies.list.add', 'Add policy')}</Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {(['other', 'route', 'qos'] as const).map((type) => (
                    <Menu.Item
                      key={type}
                      onClick={() =>
                        setParams((params) => {
                          params.set('policy', 'new');
                          params.set('type', type);
                        })
                      }
                    >
                      {typeLabels[type]}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            ) : null}
          </>
        }
      />
      {failures ? (
        <Stack mb="md">
          <TestFailuresAlert failures={failures} onClose={() => setFailures(null)} />
        </Stack>
      ) : null}
      <Tabs
        value={tab}
        onChange={(value) =>
          setParams((params) => {
            if (value === 'tests') params.set('tab', 'tests');
            else params.delete('tab');
          })
        }
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="policies">{t('policies.tabs.policies', 'Policies')}</Tabs.Tab>
          <Tabs.Tab value="tests">{t('policies.tabs.tests', 'Policy tests')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="policies">{renderLists()}</Tabs.Panel>
        <Tabs.Panel value="tests">{tab === 'tests' ? <PolicyTestsPanel /> : null}</Tabs.Panel>
      </Tabs>
      <PolicyEditor
        policyId={editorId}
        newType={newType}
        canEdit={isNewEditor ? canCreate : canUpdate}
        onClose={() =>
          setParams((params) => {
            params.delete('policy');
            params.delete('type');
          })
        }
        onCreated={(id) =>
          setSearchParams(
            (previous) => {
              const next = new URLSearchParams(previous);
              next.set('policy', id);
              next.delete('type');
              return next;
            },
            { replace: true },
          )
        }
      />
      <DeleteConfirmModal
        opened={toDelete !== null}
        title={t('policies.list.deleteTitle', 'Delete policy?')}
        message={t('policies.list.deleteConfirm', 'Policy {{name}} and its rules will be deleted.', {
          name: toDelete?.name ?? '',
        })}
        isDeleting={deleteMutation.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() => toDelete && deleteMutation.mutate([toDelete.id])}
      >
        {deleteFailures ? <TestFailuresAlert failures={deleteFailures} /> : null}
      </DeleteConfirmModal>
    </>
  );
}
