import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { User } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusReasonField } from './status-reason-field';

/** Props of {@link UserStatusModal}. */
export interface UserStatusModalProps {
  user: User;
  opened: boolean;
  isSaving: boolean;
  onClose: () => void;
  /** Disables with the reason given, or enables. */
  onConfirm: (reason: string) => void;
}

/**
 * Disabling asks why (kept on the user and in the event log, for the next administrator) and says what it does;
 * enabling asks to confirm.
 */
export function UserStatusModal({ user, opened, isSaving, onClose, onConfirm }: UserStatusModalProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const isDisabling = user.status === 'active';
  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      centered
      title={
        isDisabling
          ? t('users.status.disableTitle', 'Disable {{name}}?', { name: user.fullname || user.username })
          : t('users.status.enableTitle', 'Enable {{name}}?', { name: user.fullname || user.username })
      }
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (isDisabling && reason.trim() === '') {
            setError(t('validation.required', 'This field is required.'));
            return;
          }
          onConfirm(reason.trim());
        }}
        noValidate
      >
        <Stack gap="md">
          <Text size="sm">
            {isDisabling
              ? t(
                  'users.status.disableText',
                  'They are signed out everywhere, their pending enrolment links stop working, and they cannot sign in or connect a device until the account is enabled again.',
                )
              : t('users.status.enableText', 'They can sign in and connect devices again.')}
          </Text>
          {isDisabling ? (
            <StatusReasonField
              value={reason}
              error={error}
              onChange={(value) => {
                setReason(value);
                setError(null);
              }}
            />
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.cancel', 'Cancel')}
            </Button>
            <Button type="submit" color={isDisabling ? 'red' : undefined} loading={isSaving}>
              {isDisabling ? t('users.status.disable', 'Disable') : t('users.status.enable', 'Enable')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
