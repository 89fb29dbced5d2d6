import { Button, Modal, Group as Row, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of {@link DeleteConfirmModal}. */
export interface DeleteConfirmModalProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  isDeleting: boolean;
  onClose: () => void;
  onConfirm: () => void;
  /** Shown above the buttons (the failing tests of a refused delete). */
  children?: ReactNode;
}

/** "Delete X?" with Cancel (focused first) and a red Delete button. */
export function DeleteConfirmModal({
  opened,
  title,
  message,
  isDeleting,
  onClose,
  onConfirm,
  children,
}: DeleteConfirmModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack gap="md">
        <Text size="sm">{message}</Text>
        {children}
        <Row gap="sm" justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('policies.form.cancel', 'Cancel')}
          </Button>
          <Button color="red" loading={isDeleting} onClick={onConfirm}>
            {t('policies.list.delete', 'Delete')}
          </Button>
        </Row>
      </Stack>
    </Modal>
  );
}
