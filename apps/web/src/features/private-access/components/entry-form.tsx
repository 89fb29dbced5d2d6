import { Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AudienceFields,
  EnabledField,
  EntryFormActions,
  GatewaySelect,
  ProtocolControl,
} from './entry-fields';
import type { AccessEntry } from './entry-table';

/** The text field of what an entry reaches (a service's address, a rule's destination). */
interface TargetField {
  /** The form field it edits. */
  field: string;
  label: string;
  description: string;
  placeholder: string;
}

/** How the ports field reads for one kind of entry. */
interface PortsField {
  description: string;
  placeholder: string;
  required?: boolean;
  disabled?: boolean;
}

/** Props of {@link EntryForm}. */
export interface EntryFormProps<P extends 'tcp' | 'udp' | 'any'> {
  /** The entry edited; a new one when absent. */
  entry?: Pick<AccessEntry, 'gatewayId' | 'gatewayName' | 'users' | 'groups'>;
  // biome-ignore lint/suspicious/noExplicitAny: the values of either form.
  form: UseFormReturnType<any>;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  namePlaceholder: string;
  target: TargetField;
  protocols: readonly P[];
  /** What picking a protocol does besides setting it. */
  onProtocolChange?: (protocol: P) => void;
  ports: PortsField;
  audienceHint: string;
  enabledHint: string;
  /** The submit label of a new entry ("Save" for an existing one). */
  createLabel: string;
}

/**
 * The fields of a service or a rule, in order: name, site gateway, what it reaches, protocol, ports, who may
 * reach it, whether it is on; then cancel and submit.
 */
export function EntryForm<P extends 'tcp' | 'udp' | 'any'>({
  entry,
  form,
  onSubmit,
  onCancel,
  namePlaceholder,
  target,
  protocols,
  onProtocolChange,
  ports,
  audienceHint,
  enabledHint,
  createLabel,
}: EntryFormProps<P>) {
  const { t } = useTranslation();
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('privateAccess.form.name', 'Name')}
          placeholder={namePlaceholder}
          required
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('name')}
        />
        <GatewaySelect
          form={form}
          current={entry ? { id: entry.gatewayId, name: entry.gatewayName } : undefined}
        />
        <TextInput
          label={target.label}
          description={target.description}
          placeholder={target.placeholder}
          required
          autoComplete="off"
          {...form.getInputProps(target.field)}
        />
        <ProtocolControl
          protocols={protocols}
          value={form.values.protocol as P}
          onChange={(protocol) => {
            form.setFieldValue('protocol', protocol);
            onProtocolChange?.(protocol);
          }}
        />
        <TextInput
          label={t('privateAccess.form.ports', 'Ports')}
          description={ports.description}
          placeholder={ports.placeholder}
          required={ports.required}
          disabled={ports.disabled}
          autoComplete="off"
          {...form.getInputProps('ports')}
        />
        <AudienceFields form={form} users={entry?.users} groups={entry?.groups} description={audienceHint} />
        <EnabledField form={form} description={enabledHint} />
        <EntryFormActions
          isSubmitting={form.submitting}
          onCancel={onCancel}
          submitLabel={entry ? t('privateAccess.form.save', 'Save') : createLabel}
        />
      </Stack>
    </form>
  );
}
