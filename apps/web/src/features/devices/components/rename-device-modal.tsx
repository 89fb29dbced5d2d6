import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type DeviceDetail, DeviceUpdate } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useUpdateDevice } from '../api/update-device';

interface RenameValues {
  name: string;
}

/** Props of {@link RenameDeviceModal}. */
export interface RenameDeviceModalProps {
  device: DeviceDetail;
  tenant: string;
  onClose: () => void;
}

/** Renames an endpoint; the server's field problems show on the field. Mount it to open it. */
export function RenameDeviceModal({ device, tenant, onClose }: RenameDeviceModalProps) {
  const { t } = useTranslation();
  const form = useForm<RenameValues>({
    mode: 'controlled',
    initialValues: { name: device.name },
    validate: zodValidator<RenameValues>(DeviceUpdate, t),
  });
  const update = useUpdateDevice(tenant, device.id, {
    onSuccess: (renamed) => {
      showSuccess(t('devices.rename.done', 'Device renamed to “{{name}}”.', { name: renamed.name }));
      onClose();
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, t);
      if (Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
      else showMutationError(t, error, { title: t('devices.rename.failed', 'The device was not renamed') });
    },
  });
  return (
    <Modal
      opened
      onClose={update.isPending ? () => {} : onClose}
      title={t('devices.rename.title', 'Rename “{{name}}”', { name: device.name })}
      centered
    >
      <form onSubmit={form.onSubmit((input) => update.mutate(input))} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('devices.rename.name', 'Name')}
            required
            maxLength={100}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              {t('common.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={update.isPending}>
              {t('devices.rename.submit', 'Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
