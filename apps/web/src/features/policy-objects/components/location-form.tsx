import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { type Location, LocationInput, MAX_PORTS_LOCATIONS } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { zodValidator } from '../../../lib/form-errors';
import { ListInput } from './list-input';
import { ObjectFormActions, useObjectForm } from './object-form';

/** What the location form edits. */
export interface LocationFormValues {
  name: string;
  description: string;
  networks: string[];
}

/** The form values of a location, or of a new one (one empty network to fill in). */
export function locationToFormValues(location?: Location): LocationFormValues {
  return location
    ? { name: location.name, description: location.description, networks: [...location.networks] }
    : { name: '', description: '', networks: [''] };
}

/** Props of {@link LocationForm}. */
export interface LocationFormProps {
  /** The location to edit; a new one when absent. */
  location?: Location;
  /** Sends the input; a rejection with 400 details puts them on the fields. */
  onSubmit: (input: LocationInput) => Promise<unknown>;
  onCancel: () => void;
}

/**
 * Name, description and up to 16 networks (IPs or CIDR blocks) of a location. Validates with the contract's
 * `LocationInput` (bad entries and duplicates on their own input) and shows the server's details the same way.
 */
export function LocationForm({ location, onSubmit, onCancel }: LocationFormProps) {
  const { t } = useTranslation();
  const { form, failures, handleSubmit } = useObjectForm({
    initialValues: locationToFormValues(location),
    validate: zodValidator(LocationInput, t),
    toInput: (values: LocationFormValues): LocationInput => ({
      name: values.name,
      description: values.description,
      networks: values.networks.map((network) => network.trim()),
    }),
    onSubmit,
  });

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('policyObjects.locations.form.name', 'Name')}
          required
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Textarea
          label={t('policyObjects.locations.form.description', 'Description (optional)')}
          rows={2}
          {...form.getInputProps('description')}
        />
        <ListInput
          legend={t('policyObjects.locations.form.networks', 'Networks')}
          description={t(
            'policyObjects.locations.form.networksHint',
            'Public IP addresses or CIDR blocks the requests come from, such as 203.0.113.0/24.',
          )}
          values={form.values.networks}
          max={MAX_PORTS_LOCATIONS}
          itemLabel={(position) =>
            t('policyObjects.locations.form.network', 'Network {{position}}', { position })
          }
          addLabel={t('policyObjects.locations.form.addNetwork', 'Add network')}
          placeholder="203.0.113.0/24"
          error={form.errors.networks}
          getItemProps={(index) => form.getInputProps(`networks.${index}`)}
          onAdd={() => form.insertListItem('networks', '')}
          onRemove={(index) => form.removeListItem('networks', index)}
        />
        <ObjectFormActions
          failures={failures}
          isSubmitting={form.submitting}
          onCancel={onCancel}
          submitLabel={
            location
              ? t('policyObjects.form.save', 'Save')
              : t('policyObjects.locations.form.create', 'Add location')
          }
        />
      </Stack>
    </form>
  );
}

/** Props of {@link LocationFormModal}. */
export interface LocationFormModalProps extends LocationFormProps {
  opened: boolean;
}

/** {@link LocationForm} in a modal titled "Add location" or "Edit {name}". */
export function LocationFormModal({ opened, location, onSubmit, onCancel }: LocationFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      size="lg"
      title={
        location
          ? t('policyObjects.locations.form.editTitle', 'Edit {{name}}', { name: location.name })
          : t('policyObjects.locations.form.addTitle', 'Add location')
      }
    >
      <LocationForm location={location} onSubmit={onSubmit} onCancel={onCancel} />
    </Modal>
  );
}
