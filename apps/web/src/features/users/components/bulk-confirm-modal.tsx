import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bulkActionLabel, type FlagBulkAction } from './bulk-actions';

/** Props of {@link BulkConfirmModal}. */
export interface BulkConfirmModalProps {
  /** The change asked for, or null when the modal is closed. */
  action: FlagBulkAction | null;
  /** How many users it covers. */
  count: number;
  /** The search the users match; empty for every user of the tenant. */
  search: string;
  isRunning?: boolean;
  onClose: () => void;
  onConfirm: (action: FlagBulkAction) => void;
}

/** Asks before a change is applied to every user matching a search, stating how many that is. */
export function BulkConfirmModal({
  action,
  count,
  search,
  isRunning = false,
  onClose,
  onConfirm,
}: BulkConfirmModalProps) {
  const { t } = useTranslation();
  // The last action is kept while the modal fades out.
  const [shown, setShown] = useState<FlagBulkAction>('enablePrivateAccess');
  useEffect(() => {
    if (action) setShown(action);
  }, [action]);
  const label = bulkActionLabel(t, shown);
  return (
    <Modal
      opened={action !== null}
      onClose={isRunning ? () => {} : onClose}
      title={t('users.bulkConfirm.title', { action: label, defaultValue: '{{action}}?' })}
      centered
    >
      <Stack gap="md">
        <Text size="sm">
          {search
            ? t('users.bulkConfirm.matching', {
                count,
                search,
                defaultValue: 'This changes all {{count, number}} users matching “{{search}}”.',
              })
            : t('users.bulkConfirm.everyone', {
                count,
                defaultValue: 'This changes all {{count, number}} users of this tenant.',
              })}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isRunning}>
            {t('users.bulk.cancel', 'Cancel')}
          </Button>
          <Button onClick={() => onConfirm(shown)} loading={isRunning} data-autofocus>
            {t('users.bulkConfirm.confirm', {
              count,
              defaultValue: 'Change {{count, number}} users',
            })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
