import {
  Alert,
  Anchor,
  Button,
  Group,
  Input,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { type FormErrors, useForm } from '@mantine/form';
import type { Gateway } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { serverFieldErrors, translateKey } from '../../../lib/form-errors';
import { showMutationError } from '../../../lib/mutation-toast';
import { useGroupOptions, useSiteGateways } from '../api/lookups';
import { foldFieldErrors } from '../utils/entry-values';
import { useProtocolLabels } from './labels';
import { UserMultiSelect } from './user-multi-select';

/** Where a site gateway is added (the devices area's screen). */
export const ADD_SITE_GATEWAY_PATH = '/devices/new/add';

/** The fields both forms have besides their own. */
interface CommonValues {
  name: string;
  gatewayId: string | null;
  protocol: string;
  ports: string;
  userIds: string[];
  groupIds: string[];
  enabled: boolean;
}

/** What {@link useEntryForm} needs to know about one form. */
export interface EntryFormOptions<Values, Input> {
  initialValues: Values;
  /** The client-side check (the contract's schema through `zodValidator`). */
  validate: (values: Values) => FormErrors;
  toInput: (values: Values) => Input;
  /** Sends the input; a rejection with 400 details puts them on the fields, anything else is toasted. */
  onSubmit: (input: Input) => Promise<unknown>;
}

/**
 * The state of a service or rule form: the Mantine form and its submit handler. A check that fails, on the
 * client or on the server (`body.userIds.2` shows on the users), puts its messages on the fields and moves the
 * focus to the first of them.
 */
export function useEntryForm<Values extends CommonValues, Input>({
  initialValues,
  validate,
  toInput,
  onSubmit,
}: EntryFormOptions<Values, Input>) {
  const { t } = useTranslation();
  const form = useForm<Values>({ mode: 'controlled', initialValues, validate });
  const fields = Object.keys(initialValues);

  const focusFirstError = (errors: FormErrors) => {
    const first = fields.find((field) => errors[field] !== undefined) ?? Object.keys(errors)[0];
    if (first) form.getInputNode(first)?.focus();
  };

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      await onSubmit(toInput(values));
    } catch (error) {
      const errors = foldFieldErrors(serverFieldErrors(error, t), fields);
      if (Object.keys(errors).length === 0) {
        showMutationError(t, error);
        return;
      }
      form.setErrors(errors);
      focusFirstError(errors);
    }
  }, focusFirstError);

  return { form, handleSubmit };
}

/**
 * A validator that says "required" for an unpicked gateway, rather than the contract's "not a valid
 * identifier" for the empty id.
 */
export function withGatewayRequired<Values extends { gatewayId: string | null }>(
  t: TFunction,
  validate: (values: Values) => FormErrors,
): (values: Values) => FormErrors {
  return (values) => {
    const errors = validate(values);
    if (!values.gatewayId) errors.gatewayId = translateKey(t, 'validation.required');
    return errors;
  };
}

/** Props of {@link GatewaySelect}. */
interface GatewaySelectProps {
  // biome-ignore lint/suspicious/noExplicitAny: the field props of either form.
  form: UseFormReturnType<any>;
  /** The edited entry's gateway, kept as an option when it is no longer listed (retired). */
  current?: { id: string; name: string };
}

/** The site gateway an entry stands behind: the tenant's site gateways that are not retired. */
export function GatewaySelect({ form, current }: GatewaySelectProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canAddSite = useCan('gateways:create');
  const gateways = useSiteGateways(tenant);
  const listed = (gateways.data?.items ?? []).filter((gateway: Gateway) => gateway.status !== 'retired');
  const data = listed.map((gateway) => ({ value: gateway.id, label: gateway.name }));
  if (current && !data.some((option) => option.value === current.id)) {
    data.push({ value: current.id, label: current.name || current.id });
  }
  const hasNone = gateways.isSuccess && data.length === 0;
  return (
    <Stack gap="xs">
      <Select
        label={t('privateAccess.form.gateway', 'Site gateway')}
        description={t('privateAccess.form.gatewayHint', 'The gateway of the site the host is in.')}
        placeholder={
          gateways.isPending
            ? t('privateAccess.form.gatewaysLoading', 'Loading site gateways…')
            : t('privateAccess.form.gatewayPlaceholder', 'Choose a site gateway')
        }
        required
        searchable
        data={data}
        nothingFoundMessage={t('privateAccess.form.gatewayNone', 'No site gateway found')}
        {...form.getInputProps('gatewayId')}
      />
      {gateways.isError ? (
        <Text size="sm" c="red" role="alert">
          {t('privateAccess.form.gatewaysFailed', 'The site gateways could not be loaded.')}{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => void gateways.refetch()}>
            {t('common.retry', 'Try again')}
          </Anchor>
        </Text>
      ) : null}
      {hasNone ? (
        <Alert color="yellow" variant="light" p="sm">
          <Text size="sm">
            {t(
              'privateAccess.form.noGateways',
              'This tenant has no site gateway yet. Private access runs through one: add it first.',
            )}
          </Text>
          {canAddSite ? (
            <Anchor component={Link} to={ADD_SITE_GATEWAY_PATH} size="sm">
              {t('privateAccess.form.addGateway', 'Add a site gateway')}
            </Anchor>
          ) : null}
        </Alert>
      ) : null}
    </Stack>
  );
}

/** Props of {@link ProtocolControl}. */
interface ProtocolControlProps<P extends string> {
  protocols: readonly P[];
  value: P;
  onChange: (protocol: P) => void;
}

/** The protocol as a segmented choice, labelled by a visible text. */
export function ProtocolControl<P extends 'tcp' | 'udp' | 'any'>({
  protocols,
  value,
  onChange,
}: ProtocolControlProps<P>) {
  const { t } = useTranslation();
  const labels = useProtocolLabels();
  const labelId = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={labelId}>
        {t('privateAccess.form.protocol', 'Protocol')}
      </Text>
      <SegmentedControl
        aria-labelledby={labelId}
        value={value}
        onChange={(next) => onChange(next as P)}
        data={protocols.map((protocol) => ({ value: protocol, label: labels[protocol] }))}
        style={{ alignSelf: 'flex-start' }}
      />
    </Stack>
  );
}

/** Props of {@link AudienceFields}. */
interface AudienceFieldsProps {
  // biome-ignore lint/suspicious/noExplicitAny: the field props of either form.
  form: UseFormReturnType<any>;
  /** The edited entry's users and groups, so their names show before any search. */
  users?: { id: string; name: string }[];
  groups?: { id: string; name: string }[];
  description: ReactNode;
}

/** Who may reach the entry: users by a server search, groups from the tenant's group list. */
export function AudienceFields({ form, users = [], groups = [], description }: AudienceFieldsProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const groupOptions = useGroupOptions(tenant);
  const groupData = (groupOptions.data ?? []).map((group) => ({ value: group.id, label: group.name }));
  for (const group of groups) {
    if (!groupData.some((option) => option.value === group.id))
      groupData.push({ value: group.id, label: group.name });
  }
  const legendId = useId();
  return (
    <Stack gap="sm" role="group" aria-labelledby={legendId}>
      <div>
        <Text size="sm" fw={500} id={legendId}>
          {t('privateAccess.form.audience', 'Who may reach it')}
        </Text>
        <Input.Description>{description}</Input.Description>
      </div>
      <UserMultiSelect
        label={t('privateAccess.form.users', 'Users')}
        knownLabels={new Map(users.map((user) => [user.id, user.name]))}
        {...form.getInputProps('userIds')}
        value={form.values.userIds as string[]}
      />
      <MultiSelect
        label={t('privateAccess.form.groups', 'Groups')}
        placeholder={
          groupOptions.isPending
            ? t('privateAccess.form.groupsLoading', 'Loading groups…')
            : t('privateAccess.form.groupsPlaceholder', 'Choose groups')
        }
        data={groupData}
        searchable
        clearable
        hidePickedOptions
        nothingFoundMessage={t('privateAccess.form.groupsNone', 'No groups found')}
        {...form.getInputProps('groupIds')}
      />
    </Stack>
  );
}

/** The enabled switch of a form. */
export function EnabledField({
  form,
  description,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: the field props of either form.
  form: UseFormReturnType<any>;
  description: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Switch
      label={t('privateAccess.form.enabled', 'Enabled')}
      description={description}
      {...form.getInputProps('enabled', { type: 'checkbox' })}
    />
  );
}

/** Cancel and submit at the end of a form. */
export function EntryFormActions({
  isSubmitting,
  submitLabel,
  onCancel,
}: {
  isSubmitting: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel} disabled={isSubmitting}>
        {t('common.cancel', 'Cancel')}
      </Button>
      <Button type="submit" loading={isSubmitting}>
        {submitLabel}
      </Button>
    </Group>
  );
}
