import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupBulkAction } from './bulk-actions';

/** Props of {@link GroupBulkModal}. */
export interface GroupBulkModalProps {
  /** The action asked for, or null when the modal is closed. */
  action: GroupBulkAction | null;
  /** How many users are selected. */
  count: number;
  groups: { id: string; name: string }[];
  isLoadingGroups?: boolean;
  isRunning?: boolean;
  /** A translated problem with the chosen group from the server (e.g. it was deleted meanwhile). */
  groupError?: string | null;
  onClose: () => void;
  onConfirm: (groupId: string) => void;
}

/** Picks the group for "Add to group…" and "Remove from group…" of the selected users. */
export function GroupBulkModal({
  action,
  count,
  groups,
  isLoadingGroups = false,
  isRunning = false,
  groupError = null,
  onClose,
  onConfirm,
}: GroupBulkModalProps) {
  const { t } = useTranslation();
  const [groupId, setGroupId] = useState<string | null>(null);
  const [isMissing, setMissing] = useState(false);
  // Each opening starts without a choice; the last action is kept while the modal fades out.
  const [shown, setShown] = useState<GroupBulkAction>('addToGroup');
  useEffect(() => {
    if (action) {
      setShown(action);
      setGroupId(null);
      setMissing(false);
    }
  }, [action]);

  const isAdd = shown === 'addToGroup';
  const submit = () => {
    if (!groupId) setMissing(true);
    else onConfirm(groupId);
  };
  return (
    <Modal
      opened={action !== null}
      onClose={isRunning ? () => {} : onClose}
      title={
        isAdd ? t('users.bulk.addTitle', 'Add to group') : t('users.bulk.removeTitle', 'Remove from group')
      }
      centered
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            {isAdd
              ? t('users.bulk.addMessage', {
                  count,
                  defaultValue_one: 'The selected user joins the group you choose.',
                  defaultValue_other: 'The {{count}} selected users join the group you choose.',
                })
              : t('users.bulk.removeMessage', {
                  count,
                  defaultValue_one: 'The selected user leaves the group you choose.',
                  defaultValue_other: 'The {{count}} selected users leave the group you choose.',
                })}
          </Text>
          <Select
            label={t('users.bulk.group', 'Group')}
            placeholder={t('users.bulk.groupPlaceholder', 'Choose a group')}
            data={groups.map((group) => ({ value: group.id, label: group.name }))}
            value={groupId}
            onChange={(value) => {
              setGroupId(value);
              setMissing(false);
            }}
            searchable
            withAsterisk
            disabled={isLoadingGroups}
            nothingFoundMessage={t('users.form.groupsNone', 'No matching group')}
            error={isMissing ? t('validation.required', 'This field is required.') : groupError}
            comboboxProps={{ withinPortal: true }}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={isRunning}>
              {t('users.bulk.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={isRunning}>
              {isAdd
                ? t('users.bulk.addConfirm', 'Add to group')
                : t('users.bulk.removeConfirm', 'Remove from group')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
