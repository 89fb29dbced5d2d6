import { PRIVATE_SERVICE_PROTOCOLS, type PrivateService, PrivateServiceInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { zodValidator } from '../../../lib/form-errors';
import { type ServiceFormValues, serviceFormToInput, serviceToFormValues } from '../utils/entry-values';
import { useEntryForm, withGatewayRequired } from './entry-fields';
import { EntryForm } from './entry-form';

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
    <EntryForm
      entry={service}
      form={form}
      onSubmit={handleSubmit}
      onCancel={onCancel}
      namePlaceholder={t('privateAccess.services.form.namePlaceholder', 'Intranet')}
      target={{
        field: 'address',
        label: t('privateAccess.services.form.address', 'Internal address'),
        description: t(
          'privateAccess.services.form.addressHint',
          'The IPv4 address of the host in the site’s network, such as 192.168.1.20.',
        ),
        placeholder: '192.168.1.20',
      }}
      protocols={PRIVATE_SERVICE_PROTOCOLS}
      ports={{
        description: t(
          'privateAccess.services.form.portsHint',
          'One port, a range or a list: 443, 8000-8080 or 80,443.',
        ),
        placeholder: '443',
        required: true,
      }}
      audienceHint={t(
        'privateAccess.services.form.audienceHint',
        'Only the devices of these users, and of the members of these groups, reach the host’s ports.',
      )}
      enabledHint={t(
        'privateAccess.services.form.enabledHint',
        'A disabled service lets nobody through and guards nothing.',
      )}
      createLabel={t('privateAccess.services.form.create', 'Publish service')}
    />
  );
}
