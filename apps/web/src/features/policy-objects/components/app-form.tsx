import { Modal, Stack, TextInput } from '@mantine/core';
import { type App, AppInput, MAX_APP_ID_IP_COUNT, MAX_CUSTOM_DOMAINS_PER_APP } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { zodValidator } from '../../../lib/form-errors';
import { ListInput } from './list-input';
import { ObjectFormActions, useObjectForm } from './object-form';

/** What the custom-app form edits. */
export interface AppFormValues {
  appname: string;
  category: string;
  domains: string[];
  ips: string[];
}

/** The form values of a custom app, or of a new one. */
export function appToFormValues(app?: App): AppFormValues {
  return app
    ? { appname: app.appname, category: app.category, domains: [...app.domains], ips: [...app.ips] }
    : { appname: '', category: 'custom', domains: [''], ips: [] };
}

/** Props of {@link AppFormModal}. */
export interface AppFormModalProps {
  opened: boolean;
  /** The custom app to edit; a new one when absent. */
  app?: App;
  onSubmit: (input: AppInput) => Promise<unknown>;
  onCancel: () => void;
}

/**
 * A custom app in a modal: name, category, up to 64 domains and up to 8 IPs or CIDR blocks, each list with its
 * counter. Validates with the contract's `AppInput`, and puts server details on the entry they name.
 */
export function AppFormModal({ opened, app, onSubmit, onCancel }: AppFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      size="lg"
      title={
        app
          ? t('policyObjects.apps.form.editTitle', 'Edit {{name}}', { name: app.appname })
          : t('policyObjects.apps.form.addTitle', 'Add custom app')
      }
    >
      <AppForm app={app} onSubmit={onSubmit} onCancel={onCancel} />
    </Modal>
  );
}

function AppForm({ app, onSubmit, onCancel }: Omit<AppFormModalProps, 'opened'>) {
  const { t } = useTranslation();
  const { form, failures, handleSubmit } = useObjectForm({
    initialValues: appToFormValues(app),
    validate: zodValidator(AppInput, t),
    toInput: (values: AppFormValues): AppInput => ({
      appname: values.appname,
      category: values.category.trim() || 'custom',
      domains: values.domains.map((domain) => domain.trim()),
      ips: values.ips.map((ip) => ip.trim()),
    }),
    onSubmit,
  });

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('policyObjects.apps.form.name', 'Name')}
          required
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('appname')}
        />
        <TextInput
          label={t('policyObjects.apps.form.category', 'Category')}
          description={t('policyObjects.apps.form.categoryHint', 'A free label, such as "collaboration".')}
          autoComplete="off"
          {...form.getInputProps('category')}
        />
        <ListInput
          legend={t('policyObjects.apps.form.domains', 'Domains')}
          description={t(
            'policyObjects.apps.form.domainsHint',
            'Domains the app uses; a domain also matches its subdomains.',
          )}
          values={form.values.domains}
          max={MAX_CUSTOM_DOMAINS_PER_APP}
          itemLabel={(position) => t('policyObjects.apps.form.domain', 'Domain {{position}}', { position })}
          addLabel={t('policyObjects.apps.form.addDomain', 'Add domain')}
          placeholder="app.example.com"
          error={form.errors.domains}
          getItemProps={(index) => form.getInputProps(`domains.${index}`)}
          onAdd={() => form.insertListItem('domains', '')}
          onRemove={(index) => form.removeListItem('domains', index)}
        />
        <ListInput
          legend={t('policyObjects.apps.form.ips', 'IP addresses')}
          description={t('policyObjects.apps.form.ipsHint', 'IP addresses or CIDR blocks of the app.')}
          values={form.values.ips}
          max={MAX_APP_ID_IP_COUNT}
          itemLabel={(position) => t('policyObjects.apps.form.ip', 'IP address {{position}}', { position })}
          addLabel={t('policyObjects.apps.form.addIp', 'Add IP address')}
          placeholder="198.51.100.0/24"
          error={form.errors.ips}
          getItemProps={(index) => form.getInputProps(`ips.${index}`)}
          onAdd={() => form.insertListItem('ips', '')}
          onRemove={(index) => form.removeListItem('ips', index)}
        />
        <ObjectFormActions
          failures={failures}
          isSubmitting={form.submitting}
          onCancel={onCancel}
          submitLabel={
            app ? t('policyObjects.form.save', 'Save') : t('policyObjects.apps.form.create', 'Add app')
          }
        />
      </Stack>
    </form>
  );
}
