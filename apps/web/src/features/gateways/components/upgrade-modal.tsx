import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type Gateway, GatewayUpgradeInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useUpgradeGateway } from '../api/upgrade-gateway';

/** Props of {@link UpgradeModal}. */
export interface UpgradeModalProps {
  gateway: Gateway;
  tenant: string;
  onClose: () => void;
}

/** Asks a gateway to upgrade to a version (x.y.z). Mount it to open it. */
export function UpgradeModal({ gateway, tenant, onClose }: UpgradeModalProps) {
  const { t } = useTranslation();
  const form = useForm<{ targetVersion: string }>({
    mode: 'controlled',
    initialValues: { targetVersion: '' },
    validate: zodValidator<{ targetVersion: string }>(GatewayUpgradeInput, t),
  });
  const upgrade = useUpgradeGateway(tenant, gateway.id, {
    onSuccess: (updated) => {
      showSuccess(
        t('gateways.upgrade.done', 'Upgrade to {{version}} requested.', {
          version: updated.upgrade?.targetVersion ?? form.getValues().targetVersion.trim(),
        }),
      );
      onClose();
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, t);
      if (Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
      else
        showMutationError(t, error, { title: t('gateways.upgrade.failed', 'The upgrade was not requested') });
    },
  });
  return (
    <Modal
      opened
      onClose={upgrade.isPending ? () => {} : onClose}
      title={t('gateways.upgrade.title', 'Upgrade “{{name}}”', { name: gateway.name })}
      centered
    >
      <form onSubmit={form.onSubmit(({ targetVersion }) => upgrade.mutate(targetVersion.trim()))} noValidate>
        <Stack gap="md">
          <Text size="sm">
            {gateway.version
              ? t('gateways.upgrade.runs', 'It runs version {{version}}.', { version: gateway.version })
              : t('gateways.upgrade.runsUnknown', 'It has not reported a version yet.')}
          </Text>
          <TextInput
            label={t('gateways.upgrade.target', 'Target version')}
            description={t(
              'gateways.upgrade.targetHint',
              'Such as 1.4.2. If the gateway does not report it within 15 minutes, the upgrade shows as timed out.',
            )}
            placeholder="1.4.2"
            required
            maxLength={32}
            data-autofocus
            {...form.getInputProps('targetVersion')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={upgrade.isPending}>
              {t('gateways.form.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={upgrade.isPending}>
              {t('gateways.upgrade.submit', 'Request upgrade')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
