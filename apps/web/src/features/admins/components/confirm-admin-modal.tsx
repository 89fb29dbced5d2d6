import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Admin } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** What the administrator is about to do to another one. */
export type AdminAction = 'suspend' | 'remove';

/** Props of {@link ConfirmAdminModal}. */
export interface ConfirmAdminModalProps {
  /** The administrator and the action; the dialog is open while one is given. */
  target: { admin: Admin; action: AdminAction } | null;
  /** The signed-in user's id, to warn before acting on oneself. */
  selfId?: string;
  isWorking?: boolean;
  /** A refusal to show in the dialog (the last owner), already translated. */
  error?: string | null;
  onClose: () => void;
  onConfirm: () => void;
}

/** Asks before suspending or removing an administrator, and shows a refusal such as "last owner" in place. */
export function ConfirmAdminModal({
  target,
  selfId,
  isWorking = false,
  error,
  onClose,
  onConfirm,
}: ConfirmAdminModalProps) {
  const { t } = useTranslation();
  const action = target?.action;
  const name = target ? target.admin.username : '';
  return (
    <Modal
      opened={target !== null}
      onClose={isWorking ? () => {} : onClose}
      title={
        action === 'remove'
          ? t('admins.remove.title', 'Remove administrator?')
          : t('admins.suspend.title', 'Suspend administrator?')
      }
      centered
    >
      {target ? (
        <Stack gap="md">
          <Text size="sm">
            {action === 'remove'
              ? t(
                  'admins.remove.message',
                  '{{name}} loses access to this tenant for good, and their sessions end at once. This cannot be undone.',
                  { name },
                )
              : t(
                  'admins.suspend.message',
                  '{{name}} is signed out at once and cannot sign in until reinstated.',
                  { name },
                )}
          </Text>
          {target.admin.id === selfId ? (
            <Text size="sm" c="orange">
              {t('admins.confirm.self', 'This is your own account: you will be signed out.')}
            </Text>
          ) : null}
          {error ? (
            <Alert
              color="red"
              variant="light"
              role="alert"
              title={t('admins.confirm.refused', 'Not possible')}
            >
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={isWorking}>
              {t('admins.confirm.cancel', 'Cancel')}
            </Button>
            <Button color="red" onClick={onConfirm} loading={isWorking} disabled={Boolean(error)}>
              {action === 'remove'
                ? t('admins.remove.confirm', 'Remove')
                : t('admins.suspend.confirm', 'Suspend')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
