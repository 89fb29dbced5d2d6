import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type Gateway, GatewayUpdate } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useUpdateGateway } from '../api/update-gateway';
import { RegionField } from './region-field';

interface RenameValues {
  name: string;
  region: string;
}

/** Props of {@link RenameModal}. */
export interface RenameModalProps {
  gateway: Gateway;
  tenant: string;
  onClose: () => void;
}

/** Renames a gateway or moves it to another region (a site gateway: another site name). Mount it to open it. */
export function RenameModal({ gateway, tenant, onClose }: RenameModalProps) {
  const { t } = useTranslation();
  const form = useForm<RenameValues>({
    mode: 'controlled',
    initialValues: { name: gateway.name, region: gateway.region },
    validate: zodValidator<RenameValues>(GatewayUpdate, t),
  });
  const update = useUpdateGateway(tenant, gateway.id, {
    onSuccess: () => {
      showSuccess(t('gateways.rename.done', 'Changes saved.'));
      onClose();
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, t);
      if (Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
      else showMutationError(t, error, { title: t('gateways.rename.failed', 'The changes were not saved') });
    },
  });
  const values = form.getValues();
  return (
    <Modal
      opened
      onClose={update.isPending ? () => {} : onClose}
      title={t('gateways.rename.title', 'Rename “{{name}}”', { name: gateway.name })}
      centered
    >
      <form onSubmit={form.onSubmit((input) => update.mutate(input))} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('gateways.form.name', 'Name')}
            required
            maxLength={64}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <RegionField
            kind={gateway.kind}
            value={values.region}
            onChange={(region) => form.setFieldValue('region', region)}
            error={form.errors.region}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              {t('gateways.form.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={update.isPending}>
              {t('gateways.rename.submit', 'Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
