import { Modal, Select, Stack, Switch, TextInput } from '@mantine/core';
import { FEED_REFRESH_MINUTES, UrlFeedInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { zodValidator } from '../../../lib/form-errors';
import { useRefreshLabels } from '../utils/refresh-labels';
import { ObjectFormActions, useObjectForm } from './object-form';

interface UrlFeedFormValues {
  name: string;
  url: string;
  refreshMinutes: string;
  enabled: boolean;
}

type RefreshMinutes = (typeof FEED_REFRESH_MINUTES)[number];

const toInput = (values: UrlFeedFormValues): UrlFeedInput => ({
  name: values.name,
  url: values.url.trim(),
  refreshMinutes: Number(values.refreshMinutes) as RefreshMinutes,
  enabled: values.enabled,
});

/** Props of {@link UrlFeedFormModal}. */
export interface UrlFeedFormModalProps {
  opened: boolean;
  onSubmit: (input: UrlFeedInput) => Promise<unknown>;
  onCancel: () => void;
}

/** "Add URL feed": name, an http(s) URL and how often it is fetched again. */
export function UrlFeedFormModal({ opened, onSubmit, onCancel }: UrlFeedFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onCancel} title={t('policyObjects.feeds.url.title', 'Add URL feed')}>
      <UrlFeedForm onSubmit={onSubmit} onCancel={onCancel} />
    </Modal>
  );
}

function UrlFeedForm({ onSubmit, onCancel }: Omit<UrlFeedFormModalProps, 'opened'>) {
  const { t } = useTranslation();
  const refreshLabels = useRefreshLabels();
  const { form, failures, handleSubmit } = useObjectForm<UrlFeedFormValues, UrlFeedInput>({
    initialValues: { name: '', url: '', refreshMinutes: '1440', enabled: true },
    validate: zodValidator(UrlFeedInput, t, toInput),
    toInput,
    onSubmit,
  });

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('policyObjects.feeds.form.name', 'Name')}
          required
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('name')}
        />
        <TextInput
          type="url"
          label={t('policyObjects.feeds.url.url', 'URL')}
          description={t(
            'policyObjects.feeds.url.urlHint',
            'A plain-text list: one IP, CIDR block or domain per line; # starts a comment.',
          )}
          placeholder="https://feeds.example.com/blocklist.txt"
          required
          autoComplete="off"
          {...form.getInputProps('url')}
        />
        <Select
          label={t('policyObjects.feeds.url.refresh', 'Fetch again every')}
          data={FEED_REFRESH_MINUTES.map((minutes) => ({
            value: String(minutes),
            label: refreshLabels(minutes),
          }))}
          allowDeselect={false}
          {...form.getInputProps('refreshMinutes')}
        />
        <Switch
          label={t('policyObjects.feeds.form.enabled', 'Block its entries from now on')}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <ObjectFormActions
          failures={failures}
          isSubmitting={form.submitting}
          onCancel={onCancel}
          submitLabel={t('policyObjects.feeds.url.submit', 'Add feed')}
        />
      </Stack>
    </form>
  );
}
