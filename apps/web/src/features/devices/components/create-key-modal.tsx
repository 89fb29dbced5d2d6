import { Button, Checkbox, Group, Modal, MultiSelect, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DeploymentKeyInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError } from '../../../lib/mutation-toast';
import { type CreatedKey, useCreateDeploymentKey } from '../api/create-deployment-key';
import { useGroupOptions } from '../api/get-group-options';

/** Days a new key lasts unless the administrator says otherwise. */
const DEFAULT_EXPIRY_DAYS = 90;

interface KeyFormValues {
  name: string;
  autoGroupIds: string[];
  isNeverExpiring: boolean;
  /** Empty while the field is cleared. */
  expiresInDays: number | string;
  /** Empty for no limit. */
  maxUses: number | string;
}

/** The form values as the API takes them. */
function toInput(values: KeyFormValues): DeploymentKeyInput {
  const number = (value: number | string) => (value === '' ? Number.NaN : Number(value));
  return {
    name: values.name,
    autoGroupIds: values.autoGroupIds,
    expiresInDays: values.isNeverExpiring ? null : number(values.expiresInDays),
    maxUses: values.maxUses === '' ? null : number(values.maxUses),
  };
}

/** Props of {@link CreateKeyModal}. */
export interface CreateKeyModalProps {
  opened: boolean;
  tenant: string;
  /** Whether closing puts the focus back on the button that opened it (not when the screen moves it). */
  returnFocus?: boolean;
  onClose: () => void;
  /** The new key and its token, which the screen shows once. */
  onCreated: (created: CreatedKey) => void;
}

/** Creates a deployment key: name, auto-groups, expiry (days or never) and an optional use limit. */
export function CreateKeyModal({
  opened,
  tenant,
  returnFocus = true,
  onClose,
  onCreated,
}: CreateKeyModalProps) {
  const { t } = useTranslation();
  const groups = useGroupOptions(tenant, { enabled: opened });
  const form = useForm<KeyFormValues>({
    mode: 'controlled',
    initialValues: {
      name: '',
      autoGroupIds: [],
      isNeverExpiring: false,
      expiresInDays: DEFAULT_EXPIRY_DAYS,
      maxUses: '',
    },
    validate: zodValidator(DeploymentKeyInput, t, toInput),
  });
  const create = useCreateDeploymentKey(tenant, {
    onSuccess: (created) => {
      form.reset();
      onCreated(created);
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, t);
      if (Object.keys(fieldErrors).length) form.setErrors(fieldErrors);
      else showMutationError(t, error);
    },
  });

  const handleClose = () => {
    if (create.isPending) return;
    form.reset();
    create.reset();
    onClose();
  };

  const values = form.getValues();
  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={t('devices.keys.form.title', 'Add deployment key')}
      size="lg"
      centered
      returnFocus={returnFocus}
    >
      <form onSubmit={form.onSubmit((v) => create.mutate(toInput(v)))} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('devices.keys.form.name', 'Name')}
            description={t('devices.keys.form.nameHint', 'Where the key is used, e.g. “Intune – laptops”.')}
            required
            maxLength={100}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <MultiSelect
            label={t('devices.keys.form.autoGroups', 'Auto-groups')}
            description={t(
              'devices.keys.form.autoGroupsHint',
              'Users whose devices enrol with this key are added to these groups.',
            )}
            placeholder={
              groups.isPending
                ? t('devices.keys.form.groupsLoading', 'Loading groups…')
                : t('devices.keys.form.groupsPlaceholder', 'Choose groups')
            }
            data={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
            searchable
            clearable
            nothingFoundMessage={t('devices.keys.form.noGroups', 'No groups found')}
            {...form.getInputProps('autoGroupIds')}
          />
          <Stack gap="xs">
            <NumberInput
              label={t('devices.keys.form.expiresInDays', 'Expires after (days)')}
              min={1}
              max={3650}
              allowDecimal={false}
              allowNegative={false}
              disabled={values.isNeverExpiring}
              {...form.getInputProps('expiresInDays')}
            />
            <Checkbox
              label={t('devices.keys.form.never', 'Never expires')}
              {...form.getInputProps('isNeverExpiring', { type: 'checkbox' })}
            />
          </Stack>
          <NumberInput
            label={t('devices.keys.form.maxUses', 'Maximum uses')}
            description={t(
              'devices.keys.form.maxUsesHint',
              'How many devices may enrol with it; empty for no limit.',
            )}
            min={1}
            max={1_000_000}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
            {...form.getInputProps('maxUses')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={handleClose} disabled={create.isPending}>
              {t('devices.keys.form.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('devices.keys.form.submit', 'Add key')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
