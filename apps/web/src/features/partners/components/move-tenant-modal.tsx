import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ManagedTenant, ManagedTenantMove } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useMoveManagedTenant } from '../api/move-managed-tenant';

/**
 * The server's word on the partner field: an unknown partner in the console's own words, any other detail on the
 * field as the server put it; empty when the failure is not about the field.
 */
function partnerFieldError(error: unknown, t: TFunction): Record<string, string> {
  const isUnknown =
    error instanceof ApiError &&
    (error.details ?? []).some(
      (detail) => detail.path === 'body.partner' && detail.message === 'validation.unknownPartner',
    );
  if (isUnknown) return { partner: t('partners.move.unknownPartner', 'There is no partner with this name.') };
  const { partner } = serverFieldErrors(error, t);
  return partner ? { partner } : {};
}

/** Props of {@link MoveTenantModal}. */
export interface MoveTenantModalProps {
  /** The tenant to move; the dialog is open while one is given. */
  target: ManagedTenant | null;
  /** The console's own tenant (the platform's). */
  tenant: string;
  onClose: () => void;
}

/** Asks for the partner a customer tenant moves to (platform admins only), and moves it. */
export function MoveTenantModal({ target, tenant, onClose }: MoveTenantModalProps) {
  const { t } = useTranslation();
  const form = useForm<{ partner: string }>({
    mode: 'controlled',
    initialValues: { partner: '' },
    validate: zodValidator(ManagedTenantMove, t, (values) => ({
      partner: values.partner.trim().toLowerCase(),
    })),
  });
  const targetId = target?.id;
  // Each tenant starts with an empty field and no errors.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when another tenant is chosen, not on each render.
  useEffect(() => {
    form.reset();
  }, [targetId]);

  const move = useMoveManagedTenant(tenant, {
    onSuccess: (moved) => {
      showSuccess(
        t('partners.move.done', '{{name}} now belongs to {{partner}}.', {
          name: moved.displayName,
          partner: moved.partner ?? form.getValues().partner.trim().toLowerCase(),
        }),
      );
      onClose();
    },
    onError: (error) => {
      const fieldErrors = partnerFieldError(error, t);
      if (Object.keys(fieldErrors).length) form.setErrors(fieldErrors);
      else
        showMutationError(t, error, {
          title: t('partners.move.failed', 'The tenant was not moved'),
          fieldsOnForm: true,
        });
    },
  });
  const handleClose = () => {
    if (move.isPending) return;
    move.reset();
    onClose();
  };

  return (
    <Modal
      opened={target !== null}
      onClose={handleClose}
      title={t('partners.move.title', 'Move tenant to another partner')}
      centered
    >
      {target ? (
        <form
          onSubmit={form.onSubmit((values) =>
            move.mutate({ id: target.id, partner: values.partner.trim().toLowerCase() }),
          )}
          noValidate
        >
          <Stack gap="md">
            <Text size="sm">
              {target.partner
                ? t(
                    'partners.move.message',
                    '{{name}} is managed by {{partner}}. Which partner should manage it?',
                    {
                      name: target.displayName,
                      partner: target.partner,
                    },
                  )
                : t(
                    'partners.move.messageNoPartner',
                    '{{name}} has no partner yet. Which partner should manage it?',
                    {
                      name: target.displayName,
                    },
                  )}
            </Text>
            <TextInput
              label={t('partners.move.partner', 'Partner name')}
              description={t(
                'partners.move.partnerHint',
                'The tenant name of the partner, such as "northwind".',
              )}
              required
              maxLength={40}
              autoComplete="off"
              spellCheck={false}
              data-autofocus
              {...form.getInputProps('partner')}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={handleClose} disabled={move.isPending}>
                {t('common.cancel', 'Cancel')}
              </Button>
              <Button type="submit" loading={move.isPending}>
                {t('partners.move.submit', 'Move')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
