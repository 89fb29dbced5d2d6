import { Button, MultiSelect, Group as Row, Stack, Textarea, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import {
  POLICY_DESCRIPTION_MAX,
  POLICY_LISTS,
  POLICY_NAME_MAX,
  type PolicyGroup,
  PolicyGroupInput,
  type PolicyTestFailure,
} from '@palisade/contracts';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TestFailuresAlert } from '../../../components/policy/test-failures-alert';
import { useWorkingTenant } from '../../../lib/auth';
import { serverFieldErrors } from '../../../lib/form-errors';
import { policyTestFailures } from '../../../lib/policy-errors';
import { usePolicies } from '../api/policies';
import { policyValidator } from '../utils/validation';
import { DeviceMultiSelect, deviceLabel, GroupMultiSelect, UserMultiSelect } from './pickers';

/** What the policy-group form edits. */
export interface PolicyGroupFormValues {
  name: string;
  description: string;
  policyIds: string[];
  groupIds: string[];
  userIds: string[];
  deviceIds: string[];
}

const FIELDS = ['name', 'description', 'policyIds', 'groupIds', 'userIds', 'deviceIds'] as const;

export const EMPTY_POLICY_GROUP_FORM: PolicyGroupFormValues = {
  name: '',
  description: '',
  policyIds: [],
  groupIds: [],
  userIds: [],
  deviceIds: [],
};

/** The form values of an existing policy group. */
export function policyGroupToFormValues(group: PolicyGroup): PolicyGroupFormValues {
  return {
    name: group.name,
    description: group.description,
    policyIds: group.policies.map((policy) => policy.id),
    groupIds: group.groups.map((g) => g.id),
    userIds: group.users.map((user) => user.id),
    deviceIds: group.devices.map((device) => device.id),
  };
}

/** Props of {@link PolicyGroupForm}. */
export interface PolicyGroupFormProps {
  initialValues: PolicyGroupFormValues;
  /** The group the values came from: names of its picked groups and users. */
  source?: PolicyGroup;
  submitLabel: string;
  onSubmit: (input: PolicyGroupInput) => Promise<unknown>;
  onCancel: () => void;
  isReadOnly?: boolean;
  children?: ReactNode;
}

/**
 * The policy-group form of the add, edit and copy screens: name, description, the policies it carries and who
 * it applies to (user groups, users, devices). Refused saves show their field details or failing tests.
 */
export function PolicyGroupForm({
  initialValues,
  source,
  submitLabel,
  onSubmit,
  onCancel,
  isReadOnly = false,
  children,
}: PolicyGroupFormProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const [failures, setFailures] = useState<PolicyTestFailure[] | null>(null);
  const form = useForm<PolicyGroupFormValues>({
    mode: 'controlled',
    initialValues,
    validate: policyValidator(PolicyGroupInput, t, (values: PolicyGroupFormValues) => values),
  });
  const policiesQuery = usePolicies(tenant);

  const known = useMemo(
    () => ({
      groups: new Map((source?.groups ?? []).map((g) => [g.id, g.name])),
      users: new Map((source?.users ?? []).map((user) => [user.id, user.username])),
      devices: new Map((source?.devices ?? []).map((device) => [device.id, deviceLabel(device)])),
    }),
    [source],
  );

  const policyData = useMemo(() => {
    const listTitles = {
      qos: t('policies.lists.qos', 'QoS policies'),
      user: t('policies.lists.user', 'User policies'),
      device: t('policies.lists.device', 'Device policies'),
    };
    const lists = policiesQuery.data;
    const known = new Set<string>();
    const groups = POLICY_LISTS.map((list) => ({
      group: listTitles[list],
      items: (lists?.[list] ?? []).map((policy) => {
        known.add(policy.id);
        return { value: policy.id, label: policy.name };
      }),
    })).filter((group) => group.items.length > 0);
    const missing = (source?.policies ?? []).filter((policy) => !known.has(policy.id));
    if (missing.length > 0) {
      groups.push({
        group: t('policies.groups.otherPolicies', 'Other'),
        items: missing.map((policy) => ({ value: policy.id, label: policy.name })),
      });
    }
    return groups;
  }, [policiesQuery.data, source, t]);

  const focusFirstError = (errors: FormErrors) => {
    const first = FIELDS.find((field) =>
      Object.keys(errors).some((key) => key === field || key.startsWith(`${field}.`)),
    );
    if (first) form.getInputNode(first)?.focus();
  };

  const handleSubmit = form.onSubmit(async (values) => {
    setFailures(null);
    try {
      await onSubmit(values);
    } catch (error) {
      const failed = policyTestFailures(error);
      if (failed) {
        setFailures(failed);
        return;
      }
      const errors = serverFieldErrors(error, t);
      // A detail on one entry (`deviceIds.3`) is shown on its field.
      const shown: Record<string, string> = {};
      for (const [path, message] of Object.entries(errors)) shown[path.split('.')[0]] ??= message;
      if (Object.keys(shown).length > 0) {
        form.setErrors(shown);
        focusFirstError(shown);
      }
    }
  }, focusFirstError);

  const errorOf = (field: (typeof FIELDS)[number]) =>
    form.errors[field] ?? Object.entries(form.errors).find(([key]) => key.startsWith(`${field}.`))?.[1];

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md" maw={720}>
        {failures ? <TestFailuresAlert failures={failures} onClose={() => setFailures(null)} /> : null}
        <TextInput
          label={t('policies.groups.name', 'Name')}
          required
          maxLength={POLICY_NAME_MAX}
          autoComplete="off"
          readOnly={isReadOnly}
          {...form.getInputProps('name')}
        />
        <Textarea
          label={t('policies.groups.descriptionField', 'Description (optional)')}
          rows={2}
          maxLength={POLICY_DESCRIPTION_MAX}
          readOnly={isReadOnly}
          {...form.getInputProps('description')}
        />
        <MultiSelect
          label={t('policies.groups.policies', 'Policies')}
          description={t('policies.groups.policiesHint', 'The policies this group carries to its members.')}
          data={policyData}
          searchable
          hidePickedOptions
          disabled={isReadOnly}
          nothingFoundMessage={t('policies.rules.nothingFound', 'Nothing found')}
          {...form.getInputProps('policyIds')}
          error={errorOf('policyIds')}
        />
        <GroupMultiSelect
          label={t('policies.groups.userGroups', 'User groups')}
          value={form.getValues().groupIds}
          knownLabels={known.groups}
          onChange={(ids) => form.setFieldValue('groupIds', ids)}
          error={errorOf('groupIds')}
          disabled={isReadOnly}
        />
        <UserMultiSelect
          label={t('policies.groups.users', 'Users')}
          value={form.getValues().userIds}
          knownLabels={known.users}
          onChange={(ids) => form.setFieldValue('userIds', ids)}
          error={errorOf('userIds')}
          disabled={isReadOnly}
        />
        <DeviceMultiSelect
          label={t('policies.groups.devices', 'Devices')}
          description={t('policies.groups.devicesHint', 'Enrolled devices; search by device name or user.')}
          value={form.getValues().deviceIds}
          knownLabels={known.devices}
          onChange={(ids) => form.setFieldValue('deviceIds', ids)}
          error={errorOf('deviceIds')}
          disabled={isReadOnly}
        />
        {children}
        <Row gap="sm">
          {!isReadOnly ? (
            <Button type="submit" loading={form.submitting}>
              {submitLabel}
            </Button>
          ) : null}
          <Button variant="default" onClick={onCancel} disabled={form.submitting}>
            {t('policies.form.cancel', 'Cancel')}
          </Button>
        </Row>
      </Stack>
    </form>
  );
}
