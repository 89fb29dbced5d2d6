import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Props of {@link DeleteRoleModal}. */
export interface DeleteRoleModalProps {
  opened: boolean;
  /** Name of the role to delete. */
  name: string;
  isDeleting?: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

/** Asks before deleting a custom role. */
export function DeleteRoleModal({
  opened,
  name,
  isDeleting = false,
  onClose,
  onConfirm,
}: DeleteRoleModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={isDeleting ? () => {} : onClose}
      title={t('roles.delete.title', 'Delete role?')}
      centered
    >
      <Stack gap="md">
        <Text size="sm">
          {t('roles.delete.message', 'The role {{name}} will be deleted. This cannot be undone.', { name })}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isDeleting}>
            {t('roles.delete.cancel', 'Cancel')}
          </Button>
          <Button color="red" onClick={onConfirm} loading={isDeleting}>
            {t('roles.delete.confirm', 'Delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
