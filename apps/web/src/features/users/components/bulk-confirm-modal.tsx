import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bulkActionLabel, type FlagBulkAction } from './bulk-actions';
import { StatusReasonField } from './status-reason-field';

/** Props of {@link BulkConfirmModal}. */
export interface BulkConfirmModalProps {
  /** The change asked for, or null when the modal is closed. */
  action: FlagBulkAction | null;
  /** How many users it covers. */
  count: number;
  /** The change covers every user matching `search` (all of the tenant when empty), not the page's selection. */
  isAllMatching: boolean;
  /** The search the users match; empty for every user of the tenant. */
  search: string;
  isRunning?: boolean;
  onClose: () => void;
  /** Confirmed; `reason` is the trimmed reason of a disable, else empty. */
  onConfirm: (action: FlagBulkAction, reason: string) => void;
}

/**
 * Asks before a bulk change is applied, stating how many users it covers: the selected ones, or every user
 * matching a search. Disabling accounts also says what that does and asks why.
 */
export function BulkConfirmModal({
  action,
  count,
  isAllMatching,
  search,
  isRunning = false,
  onClose,
  onConfirm,
}: BulkConfirmModalProps) {
  const { t } = useTranslation();
  // The last action is kept while the modal fades out.
  const [shown, setShown] = useState<FlagBulkAction>('enablePrivateAccess');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  useEffect(() => {
    if (action) {
      setShown(action);
      setReason('');
      setReasonError(null);
    }
  }, [action]);
  const isDisabling = shown === 'disable';
  const label = bulkActionLabel(t, shown).replace(/…$/, '');
  const scope = !isAllMatching
    ? t('users.bulkConfirm.selected', {
        count,
        defaultValue_one: 'This changes the selected user.',
        defaultValue_other: 'This changes the {{count, number}} selected users.',
      })
    : search
      ? t('users.bulkConfirm.matching', {
          count,
          search,
          defaultValue: 'This changes all {{count, number}} users matching “{{search}}”.',
        })
      : t('users.bulkConfirm.everyone', {
          count,
          defaultValue: 'This changes all {{count, number}} users of this tenant.',
        });
  return (
    <Modal
      opened={action !== null}
      onClose={isRunning ? () => {} : onClose}
      title={t('users.bulkConfirm.title', { action: label, defaultValue: '{{action}}?' })}
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (isDisabling && reason.trim() === '') {
            setReasonError(t('validation.required', 'This field is required.'));
            return;
          }
          onConfirm(shown, isDisabling ? reason.trim() : '');
        }}
      >
        <Stack gap="md">
          <Text size="sm">{scope}</Text>
          {isDisabling ? (
            <>
              <Text size="sm">
                {t(
                  'users.bulkConfirm.disableText',
                  'They are signed out everywhere, their pending enrolment links stop working, and they cannot sign in or connect a device until their accounts are enabled again.',
                )}
              </Text>
              <StatusReasonField
                value={reason}
                error={reasonError}
                onChange={(value) => {
                  setReason(value);
                  setReasonError(null);
                }}
              />
            </>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={isRunning}>
              {t('users.bulk.cancel', 'Cancel')}
            </Button>
            <Button
              type="submit"
              color={isDisabling ? 'red' : undefined}
              loading={isRunning}
              data-autofocus={isDisabling ? undefined : true}
            >
              {t('users.bulkConfirm.confirm', {
                count,
                defaultValue_one: 'Change 1 user',
                defaultValue_other: 'Change {{count, number}} users',
              })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
