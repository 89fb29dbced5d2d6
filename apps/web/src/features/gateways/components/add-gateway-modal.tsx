import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { GATEWAY_KINDS, GatewayInput, type GatewayKind } from '@palisade/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useCreateGateway } from '../api/create-gateway';
import type { GatewayCreatedAnswer } from '../api/gateways-keys';
import { isSiteKind } from '../utils/gateway-facts';
import { EnrolmentToken } from './enrolment-token';
import { useKindLabels } from './labels';
import { RegionField } from './region-field';

interface GatewayFormValues {
  name: string;
  kind: GatewayKind;
  region: string;
}

/** Props of {@link AddGatewayModal}. */
export interface AddGatewayModalProps {
  opened: boolean;
  onClose: () => void;
  tenant: string;
  /** The kind the form starts with (virtual on the virtual cybernodes screen). */
  defaultKind: GatewayKind;
  /** The kinds offered (every kind by default; the site gateway screen offers the site kinds only). */
  kinds?: readonly GatewayKind[];
  /** Shown above the one-time token once the gateway is added (e.g. a link to its page elsewhere). */
  createdExtra?: (created: GatewayCreatedAnswer) => ReactNode;
}

/**
 * Adds a cybernode or site gateway: name, kind and region (a cloud region, or the site's name); then shows its
 * one-time enrolment token and install command. Closing forgets the token. The server's field problems show on
 * the fields.
 */
export function AddGatewayModal({
  opened,
  onClose,
  tenant,
  defaultKind,
  kinds = GATEWAY_KINDS,
  createdExtra,
}: AddGatewayModalProps) {
  const { t } = useTranslation();
  const kindLabels = useKindLabels();
  const [created, setCreated] = useState<GatewayCreatedAnswer | null>(null);
  const form = useForm<GatewayFormValues>({
    mode: 'controlled',
    initialValues: { name: '', kind: defaultKind, region: '' },
    validate: zodValidator<GatewayFormValues>(GatewayInput, t),
  });
  const create = useCreateGateway(tenant, {
    onSuccess: (answer) => {
      setCreated(answer);
      showSuccess(t('gateways.add.done', 'Gateway “{{name}}” added.', { name: answer.cybernode.name }));
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, t);
      if (Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
      else showMutationError(t, error, { title: t('gateways.add.failed', 'The gateway was not added') });
    },
  });

  const handleClose = () => {
    if (create.isPending) return;
    setCreated(null);
    form.reset();
    create.reset();
    onClose();
  };

  const values = form.getValues();
  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={
        created
          ? t('gateways.add.tokenTitle', 'Gateway added: enrol it')
          : t('gateways.add.title', 'Add gateway')
      }
      size="lg"
      centered
    >
      {created ? (
        <Stack gap="md">
          {createdExtra?.(created)}
          <EnrolmentToken answer={created} onDone={handleClose} />
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((input) => create.mutate(input))} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('gateways.form.name', 'Name')}
              required
              maxLength={64}
              data-autofocus
              {...form.getInputProps('name')}
            />
            <Select
              label={t('gateways.form.kind', 'Kind')}
              required
              data={kinds.map((kind) => ({ value: kind, label: kindLabels[kind] }))}
              allowDeselect={false}
              value={values.kind}
              onChange={(next) => {
                if (!next) return;
                const kind = next as GatewayKind;
                // A cloud region is no site name and the other way round: switching between them starts over.
                if (isSiteKind(kind) !== isSiteKind(values.kind)) form.setFieldValue('region', '');
                form.setFieldValue('kind', kind);
              }}
              error={form.errors.kind}
            />
            <RegionField
              kind={values.kind}
              value={values.region}
              onChange={(region) => form.setFieldValue('region', region)}
              error={form.errors.region}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={handleClose} disabled={create.isPending}>
                {t('gateways.form.cancel', 'Cancel')}
              </Button>
              <Button type="submit" loading={create.isPending}>
                {t('gateways.add.submit', 'Add gateway')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
