import { Badge, Button, Collapse, List, Stack, Table, Text } from '@mantine/core';
import { diffEventFields, type FieldChange, type FieldDiff } from '@palisade/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AuditDisplay,
  type AuditNames,
  type AuditValueContext,
  auditDiffFieldLabel,
  displayAuditValue,
  isHiddenField,
} from '../utils/audit-values';

/** Props of {@link EventDiff}. */
export interface EventDiffProps {
  before: unknown;
  after: unknown;
  /** The event's action and object type: they decide how some codes read (a policy's `type`, a job's `status`). */
  action?: string;
  objectType?: string;
  /** Names of the objects the values refer to by id, as far as they are known. */
  names?: AuditNames;
}

const CHANGE_COLORS: Record<Exclude<FieldChange, 'unchanged'>, string> = {
  added: 'green',
  removed: 'red',
  changed: 'yellow',
};

/** A value as {@link displayAuditValue} describes it. */
function DisplayValue({ display }: { display: AuditDisplay }) {
  const { t } = useTranslation();
  switch (display.kind) {
    case 'none':
      return (
        <Text span size="sm" c="dimmed">
          {t('audit.values.none', 'none')}
        </Text>
      );
    case 'text':
      return display.isCode ? (
        <Text span ff="monospace" size="xs" style={{ wordBreak: 'break-all' }}>
          {display.text}
        </Text>
      ) : (
        <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
          {display.text}
        </Text>
      );
    case 'list': {
      const more =
        display.more > 0 ? t('audit.values.more', 'and {{count}} more', { count: display.more }) : null;
      if (display.layout === 'inline') {
        return (
          <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
            {[...display.items, ...(more ? [more] : [])].join(', ')}
          </Text>
        );
      }
      return (
        <List size="sm" type={display.layout === 'ordered' ? 'ordered' : 'unordered'} spacing={2}>
          {display.items.map((item, i) => (
            // Items may repeat (two rules alike); their place is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above.
            <List.Item key={i} style={{ overflowWrap: 'anywhere' }}>
              {item}
            </List.Item>
          ))}
          {more ? <List.Item>{more}</List.Item> : null}
        </List>
      );
    }
    case 'fields':
      return (
        <Stack gap={2}>
          {display.entries.map((entry) => (
            <div key={entry.field}>
              <Text span size="sm" c="dimmed">
                {entry.label}:{' '}
              </Text>
              <DisplayValue display={entry.value} />
            </div>
          ))}
        </Stack>
      );
  }
}

/** A recorded value in words: absent as a dash, codes by their names, ids by the names they stand for. */
function FieldValue({
  field,
  value,
  isPresent,
  context,
}: {
  field: string;
  value: unknown;
  isPresent: boolean;
  context: AuditValueContext;
}) {
  const { t } = useTranslation();
  if (!isPresent) {
    return (
      <Text span c="dimmed" aria-label={t('events.diff.absent', 'not set')}>
        —
      </Text>
    );
  }
  return <DisplayValue display={displayAuditValue(field, value, context)} />;
}

/** One row of the comparison, labelled as the screens name the field. */
type LabelledDiff = FieldDiff & { label: string };

function DiffRows({ rows, context }: { rows: LabelledDiff[]; context: AuditValueContext }) {
  const { t } = useTranslation();
  const changeLabels: Record<FieldChange, string> = {
    added: t('events.diff.added', 'Added'),
    removed: t('events.diff.removed', 'Removed'),
    changed: t('events.diff.changed', 'Changed'),
    unchanged: t('events.diff.unchangedOne', 'Unchanged'),
  };
  return rows.map((row) => {
    const color = row.change === 'unchanged' ? undefined : CHANGE_COLORS[row.change];
    return (
      <Table.Tr
        key={row.field}
        data-change={row.change}
        bg={color ? `var(--mantine-color-${color}-light)` : undefined}
      >
        <Table.Th scope="row" fw={500}>
          {row.label}
        </Table.Th>
        <Table.Td>
          <FieldValue
            field={row.field}
            value={row.before}
            isPresent={row.change !== 'added'}
            context={context}
          />
        </Table.Td>
        <Table.Td>
          <FieldValue
            field={row.field}
            value={row.after}
            isPresent={row.change !== 'removed'}
            context={context}
          />
        </Table.Td>
        <Table.Td>
          {color ? (
            <Badge color={color} variant="light" radius="sm">
              {changeLabels[row.change]}
            </Badge>
          ) : (
            <Text span size="sm" c="dimmed">
              {changeLabels.unchanged}
            </Text>
          )}
        </Table.Td>
      </Table.Tr>
    );
  });
}

/**
 * The before/after comparison of an event: one row per field, named as the screens name it and in that name's
 * order, with values in words; added, removed and changed fields highlighted and listed first; unchanged fields
 * are folded away behind a button. Ids that only repeat the event's object are left out.
 */
export function EventDiff({ before, after, action = '', objectType = '', names }: EventDiffProps) {
  const { t, i18n } = useTranslation();
  const [isUnchangedShown, setUnchangedShown] = useState(false);
  const unchangedId = useId();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const context: AuditValueContext = { t, locale, action, objectType, names };
  const diff: LabelledDiff[] = diffEventFields(before, after)
    .filter((row) => !isHiddenField(row.field, [before, after]))
    .map((row) => ({ ...row, label: auditDiffFieldLabel(t, row.field, objectType) }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
  const changed = diff.filter((row) => row.change !== 'unchanged');
  const unchanged = diff.filter((row) => row.change === 'unchanged');

  if (diff.length === 0) {
    return <Text c="dimmed">{t('events.diff.nothing', 'No values were recorded for this event.')}</Text>;
  }

  const head = (
    <Table.Thead>
      <Table.Tr>
        <Table.Th scope="col">{t('events.diff.field', 'Field')}</Table.Th>
        <Table.Th scope="col">{t('events.diff.before', 'Before')}</Table.Th>
        <Table.Th scope="col">{t('events.diff.after', 'After')}</Table.Th>
        <Table.Th scope="col">{t('events.diff.change', 'Change')}</Table.Th>
      </Table.Tr>
    </Table.Thead>
  );

  return (
    <Stack gap="sm">
      {changed.length > 0 ? (
        <Table withTableBorder layout="fixed" verticalSpacing="xs">
          <Table.Caption>{t('events.diff.changedCaption', 'Changed fields')}</Table.Caption>
          {head}
          <Table.Tbody>
            <DiffRows rows={changed} context={context} />
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">{t('events.diff.noChanges', 'No field changed.')}</Text>
      )}
      {unchanged.length > 0 ? (
        <>
          <Button
            variant="subtle"
            size="compact-sm"
            aria-expanded={isUnchangedShown}
            aria-controls={unchangedId}
            onClick={() => setUnchangedShown((shown) => !shown)}
            style={{ alignSelf: 'flex-start' }}
          >
            {isUnchangedShown
              ? t('events.diff.hideUnchanged', {
                  count: unchanged.length,
                  defaultValue_one: 'Hide {{count}} unchanged field',
                  defaultValue_other: 'Hide {{count}} unchanged fields',
                })
              : t('events.diff.showUnchanged', {
                  count: unchanged.length,
                  defaultValue_one: 'Show {{count}} unchanged field',
                  defaultValue_other: 'Show {{count}} unchanged fields',
                })}
          </Button>
          <Collapse expanded={isUnchangedShown} id={unchangedId}>
            {isUnchangedShown ? (
              <Table withTableBorder layout="fixed" verticalSpacing="xs">
                <Table.Caption>{t('events.diff.unchangedCaption', 'Unchanged fields')}</Table.Caption>
                {head}
                <Table.Tbody>
                  <DiffRows rows={unchanged} context={context} />
                </Table.Tbody>
              </Table>
            ) : null}
          </Collapse>
        </>
      ) : null}
    </Stack>
  );
}
