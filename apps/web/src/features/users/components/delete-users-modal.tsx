import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import type { User } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** How many names the confirmation lists before it says "and N more". */
const MAX_NAMES = 5;

/** Props of {@link DeleteUsersModal}. */
export interface DeleteUsersModalProps {
  opened: boolean;
  /** The users to delete (a page's selection), named in the message. */
  users: Pick<User, 'id' | 'fullname' | 'username'>[];
  /** Instead: every user matching a search (empty for all users of the tenant), by count. */
  match?: { count: number; search: string } | null;
  isDeleting?: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

/** Asks before deleting users; names the first few so the admin sees what goes. */
export function DeleteUsersModal({
  opened,
  users,
  match = null,
  isDeleting = false,
  onClose,
  onConfirm,
}: DeleteUsersModalProps) {
  const { t } = useTranslation();
  const count = match ? match.count : users.length;
  const rest = count - MAX_NAMES;
  return (
    <Modal
      opened={opened}
      onClose={isDeleting ? () => {} : onClose}
      title={t('users.delete.title', {
        count,
        defaultValue_one: 'Delete user?',
        defaultValue_other: 'Delete users?',
      })}
      centered
    >
      <Stack gap="md">
        <Text size="sm">
          {match
            ? match.search
              ? t('users.delete.matchMessage', {
                  count,
                  search: match.search,
                  defaultValue:
                    'All {{count, number}} users matching “{{search}}” will be deleted. This cannot be undone.',
                })
              : t('users.delete.allMessage', {
                  count,
                  defaultValue:
                    'All {{count, number}} users of this tenant will be deleted. This cannot be undone.',
                })
            : t('users.delete.message', {
                count,
                defaultValue_one: 'This user will be deleted. This cannot be undone.',
                defaultValue_other: 'These {{count}} users will be deleted. This cannot be undone.',
              })}
        </Text>
        {match ? null : (
          <List size="sm" spacing={2}>
            {users.slice(0, MAX_NAMES).map((user) => (
              <List.Item key={user.id}>
                {user.fullname} ({user.username})
              </List.Item>
            ))}
            {rest > 0 ? (
              <List.Item>
                {t('users.delete.more', { count: rest, defaultValue: 'and {{count}} more' })}
              </List.Item>
            ) : null}
          </List>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isDeleting}>
            {t('users.delete.cancel', 'Cancel')}
          </Button>
          <Button color="red" onClick={onConfirm} loading={isDeleting}>
            {match
              ? t('users.delete.confirmCount', { count, defaultValue: 'Delete {{count, number}} users' })
              : t('users.delete.confirm', 'Delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
