import { Alert, Button, Group, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { type Gateway, isSystemRule, POLICY_NAME_MAX, RULE_NAME_MAX } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { translateKey } from '../../../lib/form-errors';
import { isRoutable, useGatewayChoices } from '../api/lookups';
import { checkNetworks } from '../utils/networks';
import type { RouteFormValues } from '../utils/route-policy';

const FIELDS = [
  'name',
  'networks',
  'target',
  'enabled',
] as const satisfies readonly (keyof RouteFormValues)[];
const NAME_MAX = Math.min(RULE_NAME_MAX, POLICY_NAME_MAX);

/** The form's own checks, as the server makes them: each field's translated problem. */
export function validateRoute(values: RouteFormValues, t: TFunction): FormErrors {
  const errors: FormErrors = {};
  const name = values.name.trim();
  if (name === '') errors.name = translateKey(t, 'validation.required');
  else if (name.length > NAME_MAX) errors.name = translateKey(t, 'validation.tooLong');
  else if (isSystemRule({ name, issysgen: false }))
    errors.name = t('policy.validation.systemName', 'This name is reserved for system rules.');
  const networks = checkNetworks(values.networks);
  if (networks) {
    errors.networks =
      networks.message === 'routes.validation.networksRequired'
        ? t('routes.validation.networksRequired', 'Enter at least one network.')
        : t(networks.message, { ...networks.values, defaultValue: translateKey(t, 'validation.invalid') });
  }
  if (!values.target) errors.target = t('routes.validation.gatewayRequired', 'Choose the gateway.');
  return errors;
}

/** The gateway a target names: by host name, else by name (the server matches either, ignoring case). */
export function gatewayForTarget(gateways: readonly Gateway[], target: string): Gateway | undefined {
  const wanted = target.toLowerCase();
  return (
    gateways.find((gateway) => gateway.hostname?.toLowerCase() === wanted) ??
    gateways.find((gateway) => gateway.name.toLowerCase() === wanted)
  );
}

/** Props of {@link RouteForm}. */
export interface RouteFormProps {
  initialValues: RouteFormValues;
  submitLabel: string;
  /** Saves; a rejection is handed to `fieldErrors`, whose answer is shown on the fields. */
  onSubmit: (values: RouteFormValues) => Promise<unknown>;
  /** The server's per-field problems of a refused save, as `{ field: translated message }`. */
  fieldErrors: (error: unknown) => Partial<Record<keyof RouteFormValues, string>>;
  onCancel?: () => void;
  /** Shown above the fields (a refused save's failing policy tests). */
  children?: ReactNode;
}

/**
 * The route form of add, copy and edit: the name, the destination networks (one per line or comma separated,
 * each an IPv4 address or CIDR block), the gateway the networks go through (enrolled, not retired; its host name
 * becomes the rule's target) and whether the route is enabled.
 */
export function RouteForm({
  initialValues,
  submitLabel,
  onSubmit,
  fieldErrors,
  onCancel,
  children,
}: RouteFormProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const gatewaysQuery = useGatewayChoices(tenant);
  const form = useForm<RouteFormValues>({
    mode: 'controlled',
    initialValues,
    validate: (values) => validateRoute(values, t),
  });

  const routable = (gatewaysQuery.data ?? []).filter(isRoutable);
  const target = form.values.target;
  const known = target ? gatewayForTarget(routable, target) : undefined;

  // A target naming a gateway by its name (or in other case) is shown as that gateway, by its host name.
  useEffect(() => {
    if (known && target !== known.hostname) form.setFieldValue('target', known.hostname);
  }, [known, target, form.setFieldValue]);

  const options = routable.map((gateway) => ({ value: gateway.hostname, label: gateway.name }));
  if (target && !known && !gatewaysQuery.isPending) {
    options.push({
      value: target,
      label: t('routes.form.unknownTarget', '{{target}} (no enrolled gateway answers to it)', { target }),
    });
  }

  const focusFirstError = (errors: FormErrors) => {
    const first = FIELDS.find((field) => errors[field] !== undefined);
    if (first) form.getInputNode(first)?.focus();
  };

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      const errors = fieldErrors(error);
      if (FIELDS.some((field) => errors[field] !== undefined)) {
        form.setErrors(errors);
        focusFirstError(errors);
      }
    }
  }, focusFirstError);

  const gatewayHint = known
    ? t('routes.form.gatewayHost', 'Traffic goes to the gateway with the host name {{hostname}}.', {
        hostname: known.hostname,
      })
    : t(
        'routes.form.gatewayHint',
        'Enrolled gateways that are not retired. A pending gateway can be chosen once it has enrolled.',
      );

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md" maw={640}>
        {children}
        <TextInput
          label={t('routes.form.name', 'Name')}
          autoComplete="off"
          required
          maxLength={NAME_MAX}
          {...form.getInputProps('name')}
        />
        <Textarea
          label={t('routes.form.networks', 'Destination networks')}
          description={t(
            'routes.form.networksHint',
            'One per line or separated by commas: IPv4 addresses or CIDR blocks, such as 10.20.0.0/16.',
          )}
          required
          autosize
          minRows={3}
          spellCheck={false}
          ff="monospace"
          {...form.getInputProps('networks')}
        />
        <Select
          label={t('routes.form.gateway', 'Gateway')}
          description={gatewayHint}
          placeholder={
            gatewaysQuery.isPending
              ? t('routes.form.gatewaysLoading', 'Loading gateways…')
              : t('routes.form.gatewayPlaceholder', 'Choose a gateway')
          }
          required
          searchable
          nothingFoundMessage={t('routes.form.noGateways', 'No enrolled gateway')}
          data={options}
          {...form.getInputProps('target')}
        />
        {gatewaysQuery.isError ? (
          <Alert
            color="red"
            variant="light"
            role="alert"
            title={t('routes.form.gatewaysFailed', 'The gateways could not be loaded')}
          >
            <Button size="xs" variant="outline" color="red" onClick={() => void gatewaysQuery.refetch()}>
              {t('common.retry', 'Try again')}
            </Button>
          </Alert>
        ) : null}
        <Switch
          label={t('routes.form.enabled', 'Enabled')}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <Group gap="sm">
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={form.submitting}>
              {t('common.cancel', 'Cancel')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
