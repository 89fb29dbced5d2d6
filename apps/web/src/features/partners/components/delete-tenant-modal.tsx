import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type ManagedTenant, TENANT_DELETION_GRACE_DAYS } from '@palisade/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format-time';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useDeleteManagedTenant } from '../api/delete-managed-tenant';

/** Props of {@link DeleteTenantModal}. */
export interface DeleteTenantModalProps {
  /** The tenant to delete; the dialog is open while one is given. */
  target: ManagedTenant | null;
  /** The console's own tenant. */
  tenant: string;
  onClose: () => void;
}

/**
 * Asks to delete a customer tenant: it stops working at once and is purged with everything it holds after the
 * grace period, unless restored. The button stays off until the tenant's name is typed, so that no slip of the
 * hand deletes the wrong one.
 */
export function DeleteTenantModal({ target, tenant, onClose }: DeleteTenantModalProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const targetId = target?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each tenant starts with an empty field.
  useEffect(() => setTyped(''), [targetId]);
  const remove = useDeleteManagedTenant(tenant, {
    onSuccess: (deleted) => {
      showSuccess(
        t('partners.delete.done', '{{name}} will be deleted on {{date}}. You can restore it until then.', {
          name: deleted.displayName,
          date: deleted.deletionDueAt ? formatDate(deleted.deletionDueAt) : '',
        }),
      );
      onClose();
    },
    onError: (error) =>
      showMutationError(t, error, { title: t('partners.delete.failed', 'The tenant was not deleted') }),
  });
  const matches = target !== null && typed.trim().toLowerCase() === target.name;
  const handleClose = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  return (
    <Modal
      opened={target !== null}
      onClose={handleClose}
      title={t('partners.delete.title', 'Delete tenant?')}
      centered
    >
      {target ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (matches) remove.mutate(target.id);
          }}
        >
          <Stack gap="md">
            <Text size="sm">
              {t(
                'partners.delete.message',
                'The people of {{name}} are signed out at once and cannot sign in. After {{days}} days the tenant is deleted with all its users, devices, policies and logs; until then you can restore it.',
                { name: target.displayName, days: TENANT_DELETION_GRACE_DAYS },
              )}
            </Text>
            <TextInput
              label={t('partners.delete.typeName', 'Type the tenant name {{name}} to confirm', {
                name: target.name,
              })}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={handleClose} disabled={remove.isPending}>
                {t('common.cancel', 'Cancel')}
              </Button>
              <Button type="submit" color="red" disabled={!matches} loading={remove.isPending}>
                {t('partners.delete.confirm', 'Delete tenant')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
