import { MAX_LOCAL_POLICIES, type PolicySummary } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { policyDisplayName } from '../../../lib/policy-names';
import { usePolicyLists } from '../api/lookups';
import { ChecklistField, type ChecklistOption } from '../components/checklist-field';
import { ChosenList } from '../components/chosen-list';
import { type ControlFieldProps, LocalControlsFrame } from '../components/local-controls-frame';

/** The tenant's user and device policies to choose from (QoS policies only classify: never local). */
function PolicyField({ view, value, onChange, errors, isReadOnly }: ControlFieldProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canLookup = useCan('policies:view');
  const lists = usePolicyLists(tenant, canLookup);
  const label = t('localControls.policies.label', 'Policies enforced locally');

  if (!canLookup) return <ChosenList label={label} names={view.policies.map((policy) => policy.name)} />;
  if (lists.isPending) {
    return <LoadingState label={t('localControls.policies.loading', 'Loading the tenant’s policies…')} />;
  }
  if (lists.isError) return <ErrorState error={lists.error} onRetry={() => void lists.refetch()} />;

  const option = (policy: PolicySummary, type: string): ChecklistOption => ({
    value: policy.id,
    label: policyDisplayName(t, policy.name),
    details: [
      type,
      policy.enabled
        ? t('localControls.policies.enabled', 'Enabled')
        : t('localControls.policies.disabled', 'Disabled: enforced once enabled'),
    ].join(' · '),
  });
  const options = [
    ...lists.data.user.map((policy) => option(policy, t('localControls.policies.user', 'User policy'))),
    ...lists.data.device.map((policy) => option(policy, t('localControls.policies.device', 'Device policy'))),
  ];
  return (
    <ChecklistField
      label={label}
      description={t(
        'localControls.policies.chosen',
        '{{chosen, number}} of {{max, number}} chosen. They apply to every host on the gateway’s LANs, in the tenant’s order of precedence.',
        { chosen: value.length, max: MAX_LOCAL_POLICIES },
      )}
      options={options}
      value={value}
      onChange={onChange}
      errors={errors}
      isReadOnly={isReadOnly}
      max={MAX_LOCAL_POLICIES}
      limitMessage={t(
        'localControls.policies.limit',
        'A site gateway enforces at most {{max, number}} local policies. Take one off before you choose another.',
        { max: MAX_LOCAL_POLICIES },
      )}
      searchLabel={t('localControls.policies.search', 'Find a policy')}
      emptyMessage={t(
        'localControls.policies.none',
        'This tenant has no user or device policies yet. Add one under Policies first.',
      )}
      unknownLabel={(id) =>
        view.policies.find((policy) => policy.id === id)?.name ??
        t('localControls.unknownEntry', 'Not found ({{id}})', { id })
      }
    />
  );
}

/**
 * `/devices/local-policies`: up to {@link MAX_LOCAL_POLICIES} of the tenant's user and device policies a site
 * gateway enforces itself for the hosts on its LANs.
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <LocalControlsFrame
      field="policyIds"
      title={t('localControls.policies.title', 'Local policies')}
      description={t(
        'localControls.policies.description',
        'A site gateway enforces the policies chosen here itself, for the hosts on its LANs and VLANs, without the tunnel to a cybernode. It receives a change with its next bundle.',
      )}
      sectionTitle={(name) => t('localControls.policies.section', 'Local policies of {{name}}', { name })}
    >
      {(props) => <PolicyField {...props} />}
    </LocalControlsFrame>
  );
}
