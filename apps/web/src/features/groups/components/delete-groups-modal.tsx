import { Button, List, Modal, Group as Row, Stack, Text } from '@mantine/core';
import type { Group } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useWorkingTenant } from '../../../lib/auth';
import { useGroupUsages } from '../api/get-group-usage';

/** How many groups the confirmation lists before it says "and N more". */
const MAX_NAMES = 10;

/** Props of {@link DeleteGroupsModal}. */
export interface DeleteGroupsModalProps {
  opened: boolean;
  /** The groups to delete. */
  groups: Pick<Group, 'id' | 'name'>[];
  isDeleting?: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

/**
 * Asks before deleting groups. It first asks the server where each group is used and says how many members
 * lose it and which objects refer to it; the delete button waits for that answer.
 */
export function DeleteGroupsModal({
  opened,
  groups,
  isDeleting = false,
  onClose,
  onConfirm,
}: DeleteGroupsModalProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const usage = useGroupUsages(
    tenant,
    groups.map((group) => group.id),
    opened,
  );
  const count = groups.length;
  const rest = count - MAX_NAMES;

  const renderUsage = () => {
    if (usage.error) return <ErrorState error={usage.error} onRetry={() => void usage.refetch()} />;
    if (usage.isPending)
      return <LoadingState label={t('groups.delete.checking', 'Checking where it is used…')} />;
    const totalMembers = usage.usages.reduce((sum, item) => sum + (item?.members ?? 0), 0);
    return (
      <>
        <Text size="sm" fw={500}>
          {count === 1
            ? t('groups.delete.members', {
                count: totalMembers,
                defaultValue_one: '{{count}} member will lose this group.',
                defaultValue_other: '{{count}} members will lose this group.',
              })
            : t('groups.delete.memberships', {
                count: totalMembers,
                defaultValue_one: '{{count}} membership will be removed from users.',
                defaultValue_other: '{{count}} memberships will be removed from users.',
              })}
        </Text>
        <List size="sm" spacing={2}>
          {groups.slice(0, MAX_NAMES).map((group, index) => {
            const item = usage.usages[index];
            return (
              <List.Item key={group.id}>
                {t('groups.delete.groupLine', {
                  name: group.name,
                  count: item?.members ?? 0,
                  defaultValue_one: '{{name}}: {{count}} member',
                  defaultValue_other: '{{name}}: {{count}} members',
                })}
                {item && item.references.length > 0 ? (
                  <List size="xs" withPadding>
                    {item.references.map((ref) => (
                      <List.Item key={`${ref.type}:${ref.id}`}>
                        {t('groups.delete.usedBy', 'Used by {{type}} {{name}}', {
                          type: ref.type,
                          name: ref.name,
                        })}
                      </List.Item>
                    ))}
                  </List>
                ) : null}
              </List.Item>
            );
          })}
          {rest > 0 ? (
            <List.Item>
              {t('groups.delete.more', { count: rest, defaultValue: 'and {{count}} more' })}
            </List.Item>
          ) : null}
        </List>
      </>
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={isDeleting ? () => {} : onClose}
      title={t('groups.delete.title', {
        count,
        defaultValue_one: 'Delete group?',
        defaultValue_other: 'Delete {{count}} groups?',
      })}
      centered
    >
      <Stack gap="md">
        <Text size="sm">
          {t('groups.delete.message', {
            count,
            defaultValue_one:
              'The group will be deleted and its members removed from it. This cannot be undone.',
            defaultValue_other:
              'These groups will be deleted and their members removed from them. This cannot be undone.',
          })}
        </Text>
        {opened ? renderUsage() : null}
        <Row justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isDeleting}>
            {t('groups.delete.cancel', 'Cancel')}
          </Button>
          <Button
            color="red"
            onClick={onConfirm}
            loading={isDeleting}
            disabled={usage.isPending || usage.error !== null}
          >
            {t('groups.delete.confirm', 'Delete')}
          </Button>
        </Row>
      </Stack>
    </Modal>
  );
}
