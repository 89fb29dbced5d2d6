import { Modal, Stack, TextInput } from '@mantine/core';
import { PRIVATE_SERVICE_PROTOCOLS, type PrivateService, PrivateServiceInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { zodValidator } from '../../../lib/form-errors';
import { type ServiceFormValues, serviceFormToInput, serviceToFormValues } from '../utils/entry-values';
import {
  AudienceFields,
  EnabledField,
  EntryFormActions,
  GatewaySelect,
  ProtocolControl,
  useEntryForm,
  withGatewayRequired,
} from './entry-fields';

/** Props of {@link ServiceForm}. */
export interface ServiceFormProps {
  /** The service to edit; a new one when absent. */
  service?: PrivateService;
  /** Sends the input; a rejection with 400 details puts them on the fields. */
  onSubmit: (input: PrivateServiceInput) => Promise<unknown>;
  onCancel: () => void;
}

/**
 * Name, site gateway, internal address, protocol and ports of a private service, who may reach it and whether
 * it is on. Checked with the contract's `PrivateServiceInput`; the server's details show on the same fields.
 */
export function ServiceForm({ service, onSubmit, onCancel }: ServiceFormProps) {
  const { t } = useTranslation();
  const { form, handleSubmit } = useEntryForm({
    initialValues: serviceToFormValues(service),
    validate: withGatewayRequired(
      t,
      zodValidator<ServiceFormValues, PrivateServiceInput>(PrivateServiceInput, t, serviceFormToInput),
    ),
    toInput: serviceFormToInput,
    onSubmit,
  });

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('privateAccess.form.name', 'Name')}
          placeholder={t('privateAccess.services.form.namePlaceholder', 'Intranet')}
          required
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('name')}
        />
        <GatewaySelect
          form={form}
          current={service ? { id: service.gatewayId, name: service.gatewayName } : undefined}
        />
        <TextInput
          label={t('privateAccess.services.form.address', 'Internal address')}
          description={t(
            'privateAccess.services.form.addressHint',
            'The IPv4 address of the host in the site’s network, such as 192.168.1.20.',
          )}
          placeholder="192.168.1.20"
          required
          autoComplete="off"
          {...form.getInputProps('address')}
        />
        <ProtocolControl
          protocols={PRIVATE_SERVICE_PROTOCOLS}
          value={form.values.protocol}
          onChange={(protocol) => form.setFieldValue('protocol', protocol)}
        />
        <TextInput
          label={t('privateAccess.form.ports', 'Ports')}
          description={t(
            'privateAccess.services.form.portsHint',
            'One port, a range or a list: 443, 8000-8080 or 80,443.',
          )}
          placeholder="443"
          required
          autoComplete="off"
          {...form.getInputProps('ports')}
        />
        <AudienceFields
          form={form}
          users={service?.users}
          groups={service?.groups}
          description={t(
            'privateAccess.services.form.audienceHint',
            'Only the devices of these users, and of the members of these groups, reach the host’s ports.',
          )}
        />
        <EnabledField
          form={form}
          description={t(
            'privateAccess.services.form.enabledHint',
            'A disabled service lets nobody through and guards nothing.',
          )}
        />
        <EntryFormActions
          isSubmitting={form.submitting}
          onCancel={onCancel}
          submitLabel={
            service
              ? t('privateAccess.form.save', 'Save')
              : t('privateAccess.services.form.create', 'Publish service')
          }
        />
      </Stack>
    </form>
  );
}

/** Props of {@link ServiceFormModal}. */
export interface ServiceFormModalProps extends ServiceFormProps {
  opened: boolean;
}

/** {@link ServiceForm} in a modal titled "Publish a service" or "Edit {name}". */
export function ServiceFormModal({ opened, service, onSubmit, onCancel }: ServiceFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      size="lg"
      title={
        service
          ? t('privateAccess.form.editTitle', 'Edit {{name}}', { name: service.name })
          : t('privateAccess.services.form.addTitle', 'Publish a service')
      }
    >
      <ServiceForm service={service} onSubmit={onSubmit} onCancel={onCancel} />
    </Modal>
  );
}
