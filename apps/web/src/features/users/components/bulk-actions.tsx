import { Button, Group, Loader, Menu, Text } from '@mantine/core';
import type { UserBulkAction } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectedCount } from '../../../components/list/server-list';
import { useFeature } from '../../../lib/tenant-flags';

/** The bulk changes that need no more input than the selection (and a reason, to disable accounts). */
export type FlagBulkAction = Exclude<UserBulkAction, 'addToGroup' | 'removeFromGroup'>;

/** The bulk changes that need a group. */
export type GroupBulkAction = Extract<UserBulkAction, 'addToGroup' | 'removeFromGroup'>;

const FLAG_ACTIONS: FlagBulkAction[][] = [
  ['enablePrivateAccess', 'disablePrivateAccess'],
  ['enableInternetAccess', 'disableInternetAccess'],
  ['enableXdr', 'disableXdr'],
  ['disable', 'enable'],
];

/** The XDR actions, offered only while the working tenant has XDR (the server refuses them otherwise). */
const XDR_ACTIONS: readonly FlagBulkAction[] = ['enableXdr', 'disableXdr'];

/** The menu label of a bulk action, e.g. "Enable private access" or "Add to group…". */
export function bulkActionLabel(t: TFunction, action: UserBulkAction): string {
  const labels: Record<UserBulkAction, string> = {
    enablePrivateAccess: t('users.bulk.enablePrivateAccess', 'Enable private access'),
    disablePrivateAccess: t('users.bulk.disablePrivateAccess', 'Disable private access'),
    enableInternetAccess: t('users.bulk.enableInternetAccess', 'Enable internet access'),
    disableInternetAccess: t('users.bulk.disableInternetAccess', 'Disable internet access'),
    enableXdr: t('users.bulk.enableXdr', 'Enable XDR'),
    disableXdr: t('users.bulk.disableXdr', 'Disable XDR'),
    addToGroup: t('users.bulk.addToGroup', 'Add to group…'),
    removeFromGroup: t('users.bulk.removeFromGroup', 'Remove from group…'),
    disable: t('users.bulk.disable', 'Disable accounts…'),
    enable: t('users.bulk.enable', 'Enable accounts'),
  };
  return labels[action];
}

/** Props of {@link BulkActions}. */
export interface BulkActionsProps {
  /** How many users are selected. */
  count: number;
  /** `count` is every user matching an estimated total: said as "about". */
  isCountEstimate?: boolean;
  /** Shows "Delete" (users:delete). */
  canDelete: boolean;
  /** Shows the "Bulk actions" menu (users:update). */
  canUpdate: boolean;
  /** True while a bulk change runs: the menu is busy and a progress line is announced. */
  isRunning: boolean;
  onDelete: () => void;
  onFlagAction: (action: FlagBulkAction) => void;
  onGroupAction: (action: GroupBulkAction) => void;
}

/** The bar above the table for the selected users: their count, "Delete" and the "Bulk actions" menu. */
export function BulkActions({
  count,
  isCountEstimate = false,
  canDelete,
  canUpdate,
  isRunning,
  onDelete,
  onFlagAction,
  onGroupAction,
}: BulkActionsProps) {
  const { t } = useTranslation();
  const hasXdr = useFeature('xdr');
  const flagActions = hasXdr
    ? FLAG_ACTIONS
    : FLAG_ACTIONS.filter((pair) => !pair.some((action) => XDR_ACTIONS.includes(action)));
  return (
    <Group gap="sm">
      {isRunning ? (
        <Group gap="xs" role="status" aria-live="polite">
          <Loader size="xs" aria-hidden />
          <Text size="sm">
            {t('users.bulk.running', {
              count,
              defaultValue_one: 'Updating 1 user…',
              defaultValue_other: 'Updating {{count, number}} users…',
            })}
          </Text>
        </Group>
      ) : (
        <SelectedCount count={count} isEstimate={isCountEstimate} />
      )}
      {canUpdate ? (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button variant="light" loading={isRunning}>
              {t('users.bulk.menu', 'Bulk actions')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {flagActions.map((pair, index) => (
              <Fragment key={pair[0]}>
                {index > 0 ? <Menu.Divider /> : null}
                {pair.map((action) => (
                  <Menu.Item key={action} onClick={() => onFlagAction(action)}>
                    {bulkActionLabel(t, action)}
                  </Menu.Item>
                ))}
              </Fragment>
            ))}
            <Menu.Divider />
            <Menu.Item onClick={() => onGroupAction('addToGroup')}>
              {bulkActionLabel(t, 'addToGroup')}
            </Menu.Item>
            <Menu.Item onClick={() => onGroupAction('removeFromGroup')}>
              {bulkActionLabel(t, 'removeFromGroup')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ) : null}
      {canDelete ? (
        <Button color="red" variant="light" onClick={onDelete} disabled={isRunning}>
          {t('users.list.delete', 'Delete')}
        </Button>
      ) : null}
    </Group>
  );
}
