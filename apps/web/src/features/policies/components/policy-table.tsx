import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Badge, Group as Row, Switch, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { PolicySummary } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConfigFlag } from '../../../lib/tenant-flags';
import { ArrowDownIcon, ArrowUpIcon, CopyIcon, EditIcon, GripIcon, TrashIcon } from './icons';

/** What the signed-in user may do in the table. */
export interface PolicyTableRights {
  canUpdate: boolean;
  /** Shows the copy action: `policies:create` and the tenant's copy-allowed configuration. */
  canCopy: boolean;
  canDelete: boolean;
}

/** Props of {@link PolicyTable}. */
export interface PolicyTableProps extends PolicyTableRights {
  /** The list's policies in precedence order. */
  policies: PolicySummary[];
  /** Accessible name of the table (the section heading). */
  label: string;
  /** Called with every id of the list in the new order. */
  onReorder: (ids: string[]) => void;
  /** Where the "Edit" link of a policy goes. */
  editHref: (policy: PolicySummary) => string;
  onToggleEnabled: (policy: PolicySummary, enabled: boolean) => void;
  onCopy: (policy: PolicySummary) => void;
  onDelete: (policy: PolicySummary) => void;
  /** True while a write of this list runs: reorder controls are disabled. */
  isBusy?: boolean;
}

interface RowProps extends PolicyTableRights {
  policy: PolicySummary;
  index: number;
  count: number;
  isBusy: boolean;
  /** The policy-group column is shown (the tenant's `policyGroups` configuration flag). */
  hasPolicyGroups: boolean;
  editHref: string;
  onMove: (from: number, to: number) => void;
  onToggleEnabled: (enabled: boolean) => void;
  onCopy: () => void;
  onDelete: () => void;
}

function SortableRow({
  policy,
  index,
  count,
  isBusy,
  hasPolicyGroups,
  canUpdate,
  canCopy,
  canDelete,
  editHref,
  onMove,
  onToggleEnabled,
  onCopy,
  onDelete,
}: RowProps) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: policy.id, disabled: !canUpdate || isBusy });
  const style = {
    transform: CSS.Translate.toString(transform),
    transition,
    position: 'relative' as const,
    zIndex: isDragging ? 1 : undefined,
    background: isDragging ? 'var(--mantine-color-body)' : undefined,
    boxShadow: isDragging ? 'var(--mantine-shadow-md)' : undefined,
  };
  const name = policy.name;
  return (
    <Table.Tr ref={setNodeRef} style={style} data-testid="policy-row">
      <Table.Td>
        <Row gap={4} wrap="nowrap">
          {canUpdate ? (
            <ActionIcon
              ref={setActivatorNodeRef}
              variant="subtle"
              color="gray"
              aria-label={t(
                'policies.list.dragHandle',
                'Reorder {{name}} (space to pick up, arrows to move)',
                {
                  name,
                },
              )}
              style={{ cursor: isBusy ? 'default' : 'grab', touchAction: 'none' }}
              disabled={isBusy}
              {...attributes}
              {...listeners}
            >
              <GripIcon />
            </ActionIcon>
          ) : null}
          <Text size="sm" fw={600}>
            {index + 1}
          </Text>
        </Row>
      </Table.Td>
      <Table.Td>
        <Text
          component={Link}
          to={editHref}
          size="sm"
          fw={500}
          c="var(--mantine-color-anchor)"
          td="underline"
        >
          {name}
        </Text>
        {policy.description ? (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {policy.description}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td ta="end">{policy.ruleCount}</Table.Td>
      {hasPolicyGroups ? (
        <Table.Td>
          {policy.policyGroups.length === 0 ? (
            <Badge variant="outline" color="gray" size="sm">
              {t('policies.list.appliesToEveryone', 'Applies to everyone')}
            </Badge>
          ) : (
            <Row gap={4}>
              {policy.policyGroups.map((group) => (
                <Badge
                  key={group.id}
                  size="sm"
                  variant="light"
                  component={Link}
                  to={`/policy/policyGroups/${group.id}`}
                  style={{ cursor: 'pointer', textTransform: 'none' }}
                >
                  {group.name}
                </Badge>
              ))}
            </Row>
          )}
        </Table.Td>
      ) : null}
      <Table.Td>
        <Switch
          checked={policy.enabled}
          disabled={!canUpdate || isBusy}
          onChange={(event) => onToggleEnabled(event.currentTarget.checked)}
          aria-label={t('policies.list.enabledLabel', 'Enabled: {{name}}', { name })}
          label={
            <VisuallyHidden>
              {policy.enabled ? t('policies.list.on', 'On') : t('policies.list.off', 'Off')}
            </VisuallyHidden>
          }
        />
      </Table.Td>
      <Table.Td>
        <Row gap={2} wrap="nowrap" justify="flex-end">
          {canUpdate ? (
            <>
              <Tooltip label={t('policies.list.moveUp', 'Move up')}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('policies.list.moveUpLabel', 'Move {{name}} up', { name })}
                  disabled={index === 0 || isBusy}
                  onClick={() => onMove(index, index - 1)}
                >
                  <ArrowUpIcon />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('policies.list.moveDown', 'Move down')}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('policies.list.moveDownLabel', 'Move {{name}} down', { name })}
                  disabled={index === count - 1 || isBusy}
                  onClick={() => onMove(index, index + 1)}
                >
                  <ArrowDownIcon />
                </ActionIcon>
              </Tooltip>
            </>
          ) : null}
          <Tooltip label={canUpdate ? t('policies.list.edit', 'Edit') : t('policies.list.view', 'View')}>
            <ActionIcon
              component={Link}
              to={editHref}
              variant="subtle"
              aria-label={
                canUpdate
                  ? t('policies.list.editLabel', 'Edit {{name}}', { name })
                  : t('policies.list.viewLabel', 'View {{name}}', { name })
              }
            >
              <EditIcon />
            </ActionIcon>
          </Tooltip>
          {canCopy ? (
            <Tooltip label={t('policies.list.copy', 'Copy')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('policies.list.copyLabel', 'Copy {{name}}', { name })}
                onClick={onCopy}
                disabled={isBusy}
              >
                <CopyIcon />
              </ActionIcon>
            </Tooltip>
          ) : null}
          {canDelete ? (
            <Tooltip label={t('policies.list.delete', 'Delete')}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('policies.list.deleteLabel', 'Delete {{name}}', { name })}
                onClick={onDelete}
                disabled={isBusy}
              >
                <TrashIcon />
              </ActionIcon>
            </Tooltip>
          ) : null}
        </Row>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * One ordered policy list: drag a row by its handle (mouse, touch, or keyboard — space picks up, arrows move,
 * space drops, escape cancels) or use the "Move up"/"Move down" buttons. Every move is announced for screen
 * readers and sent as the whole new order. The policy-group column shows while the tenant has policy groups (its
 * `policyGroups` configuration flag); without them every policy applies to everyone.
 */
export function PolicyTable({
  policies,
  label,
  onReorder,
  editHref,
  onToggleEnabled,
  onCopy,
  onDelete,
  isBusy = false,
  ...rights
}: PolicyTableProps) {
  const { t } = useTranslation();
  const hasPolicyGroups = useConfigFlag('policyGroups');
  const [announcement, setAnnouncement] = useState('');
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = policies.map((policy) => policy.id);
  const nameOf = (id: string | number) => policies.find((policy) => policy.id === id)?.name ?? String(id);
  const positionOf = (id: string | number) => ids.indexOf(String(id)) + 1;
  const total = policies.length;

  const move = (from: number, to: number) => {
    if (to < 0 || to >= total || from === to) return;
    setAnnouncement(
      t('policies.dnd.moved', '{{name}} moved to position {{position}} of {{total}}.', {
        name: policies[from].name,
        position: to + 1,
        total,
      }),
    );
    onReorder(arrayMove(ids, from, to));
  };

  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onReorder(arrayMove(ids, ids.indexOf(String(active.id)), ids.indexOf(String(over.id))));
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={handleDragEnd}
      accessibility={{
        screenReaderInstructions: {
          draggable: t(
            'policies.dnd.instructions',
            'To reorder, press space or enter to pick up the policy, use the arrow keys to move it, press space or enter again to drop it, or escape to cancel.',
          ),
        },
        announcements: {
          onDragStart: ({ active }) =>
            t('policies.dnd.start', 'Picked up {{name}} at position {{position}} of {{total}}.', {
              name: nameOf(active.id),
              position: positionOf(active.id),
              total,
            }),
          onDragOver: ({ active, over }) =>
            over
              ? t('policies.dnd.over', '{{name}} is over position {{position}} of {{total}}.', {
                  name: nameOf(active.id),
                  position: positionOf(over.id),
                  total,
                })
              : t('policies.dnd.outside', '{{name}} is no longer over the list.', {
                  name: nameOf(active.id),
                }),
          onDragEnd: ({ active, over }) =>
            over
              ? t('policies.dnd.end', '{{name}} dropped at position {{position}} of {{total}}.', {
                  name: nameOf(active.id),
                  position: positionOf(over.id),
                  total,
                })
              : t('policies.dnd.cancel', 'Moving {{name}} was cancelled.', { name: nameOf(active.id) }),
          onDragCancel: ({ active }) =>
            t('policies.dnd.cancel', 'Moving {{name}} was cancelled.', { name: nameOf(active.id) }),
        },
      }}
    >
      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" highlightOnHover aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={90}>
                <span aria-hidden="true">#</span>
                <VisuallyHidden>{t('policies.columns.precedence', 'Precedence')}</VisuallyHidden>
              </Table.Th>
              <Table.Th>{t('policies.columns.name', 'Name')}</Table.Th>
              <Table.Th w={70} ta="end">
                {t('policies.columns.rules', 'Rules')}
              </Table.Th>
              {hasPolicyGroups ? (
                <Table.Th>{t('policies.columns.policyGroups', 'Policy groups')}</Table.Th>
              ) : null}
              <Table.Th w={90}>{t('policies.columns.enabled', 'Enabled')}</Table.Th>
              <Table.Th w={180} ta="end">
                {t('policies.columns.actions', 'Actions')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <SortableContext items={ids} strategy={verticalListSortingStrategy}>
              {policies.map((policy, index) => (
                <SortableRow
                  key={policy.id}
                  policy={policy}
                  index={index}
                  count={total}
                  isBusy={isBusy}
                  hasPolicyGroups={hasPolicyGroups}
                  editHref={editHref(policy)}
                  onMove={move}
                  onToggleEnabled={(enabled) => onToggleEnabled(policy, enabled)}
                  onCopy={() => onCopy(policy)}
                  onDelete={() => onDelete(policy)}
                  {...rights}
                />
              ))}
            </SortableContext>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </DndContext>
  );
}
