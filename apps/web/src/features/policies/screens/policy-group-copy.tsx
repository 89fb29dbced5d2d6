import { Alert, Text } from '@mantine/core';
import { POLICY_NAME_MAX } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { isMissing } from '../../../lib/policy-errors';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { usePolicyGroup, useSavePolicyGroup } from '../api/policy-groups';
import { PolicyGroupForm, policyGroupToFormValues } from '../components/policy-group-form';
import { BackToPolicyGroups, PolicyGroupNotFound } from './policy-group-detail';

/** The copy variant of `/policy/policyGroups/:id/:type` (spec §2); other types are not screens. */
export const COPY_TYPE = 'copy';

/**
 * `/policy/policyGroups/:id/copy`: a new policy group pre-filled from an existing one. The route is behind
 * `copyAllowed` (contracts `CONFIG_ROUTES`); while the tenant has policy groups off as well, the screen says so and
 * asks for nothing (the policy-group routes answer 403 then).
 */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '', type } = useParams();
  const tenant = useWorkingTenant();
  const canCreate = useCan('policies:create');
  const hasPolicyGroups = useConfigFlag('policyGroups');
  const sourceQuery = usePolicyGroup(tenant, id, type === COPY_TYPE && hasPolicyGroups);
  const saveMutation = useSavePolicyGroup(tenant, {
    onSuccess: (group) => {
      showSuccess(t('policies.groups.saved', 'Policy group {{name}} saved.', { name: group.name }));
      navigate(`/policy/policyGroups/${group.id}`);
    },
  });

  if (type !== COPY_TYPE) return <PolicyGroupNotFound />;
  if (!hasPolicyGroups) {
    return (
      <>
        <PageHeader title={t('features.notIncluded.title', 'Not included in this workspace')} />
        <Alert color="gray" title={t('features.notIncluded.heading', 'This part is turned off here')}>
          <Text size="sm">
            {t(
              'features.notIncluded.config',
              "This workspace's configuration turns this off. Its administrators can change that under Configurations.",
            )}
          </Text>
        </Alert>
      </>
    );
  }
  const title = t('policies.groups.copyTitle', 'Copy policy group');
  if (!canCreate) {
    return (
      <>
        <PageHeader title={title} actions={<BackToPolicyGroups />} />
        <Alert color="yellow" variant="light" title={t('policies.notAllowed', 'Not available')}>
          {t('error.3', 'Your role does not allow this.')}
        </Alert>
      </>
    );
  }
  if (sourceQuery.isPending)
    return <LoadingState label={t('policies.groups.loadingOne', 'Loading policy group…')} />;
  if (sourceQuery.isError && isMissing(sourceQuery.error)) return <PolicyGroupNotFound />;
  if (sourceQuery.isError)
    return <ErrorState error={sourceQuery.error} onRetry={() => void sourceQuery.refetch()} />;
  const source = sourceQuery.data;

  return (
    <>
      <PageHeader
        title={title}
        description={t('policies.groups.copyDescription', 'A new policy group based on {{name}}.', {
          name: source.name,
        })}
        actions={<BackToPolicyGroups />}
      />
      <PolicyGroupForm
        initialValues={{
          ...policyGroupToFormValues(source),
          name: t('policies.list.copyName', 'Copy of {{name}}', { name: source.name }).slice(
            0,
            POLICY_NAME_MAX,
          ),
        }}
        source={source}
        submitLabel={t('policies.groups.create', 'Add policy group')}
        onSubmit={(body) => saveMutation.mutateAsync({ id: null, body })}
        onCancel={() => navigate(`/policy/policyGroups/${id}`)}
      />
    </>
  );
}
