import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of {@link ConfirmModal}. */
export interface ConfirmModalProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  /** Text of the confirm button. */
  confirmLabel: string;
  /** Red for what cannot be undone. */
  isDestructive?: boolean;
  isBusy?: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

/** Asks before a change; nothing happens until the confirm button is pressed. */
export function ConfirmModal({
  opened,
  title,
  message,
  confirmLabel,
  isDestructive = false,
  isBusy = false,
  onClose,
  onConfirm,
}: ConfirmModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={isBusy ? () => {} : onClose} title={title} centered>
      <Stack gap="md">
        <Text size="sm">{message}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isBusy}>
            {t('common.cancel', 'Cancel')}
          </Button>
          <Button color={isDestructive ? 'red' : undefined} onClick={onConfirm} loading={isBusy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
