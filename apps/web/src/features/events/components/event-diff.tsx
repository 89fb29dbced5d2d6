import { Badge, Button, Code, Collapse, Stack, Table, Text } from '@mantine/core';
import { diffEventFields, type FieldChange, type FieldDiff } from '@palisade/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of {@link EventDiff}. */
export interface EventDiffProps {
  before: unknown;
  after: unknown;
}

const CHANGE_COLORS: Record<Exclude<FieldChange, 'unchanged'>, string> = {
  added: 'green',
  removed: 'red',
  changed: 'yellow',
};

/** A recorded value as text: absent as a dash, strings as they are, anything else as JSON. */
function FieldValue({ value, isPresent }: { value: unknown; isPresent: boolean }) {
  const { t } = useTranslation();
  if (!isPresent) {
    return (
      <Text span c="dimmed" aria-label={t('events.diff.absent', 'not set')}>
        —
      </Text>
    );
  }
  if (typeof value === 'string') return <Text span>{value}</Text>;
  if (value !== null && typeof value === 'object') {
    return (
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {JSON.stringify(value, null, 2)}
      </Code>
    );
  }
  return <Code>{JSON.stringify(value)}</Code>;
}

function DiffRows({ rows }: { rows: FieldDiff[] }) {
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
          {row.field}
        </Table.Th>
        <Table.Td>
          <FieldValue value={row.before} isPresent={row.change !== 'added'} />
        </Table.Td>
        <Table.Td>
          <FieldValue value={row.after} isPresent={row.change !== 'removed'} />
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
 * The before/after comparison of an event: one row per field, added, removed and changed fields highlighted
 * and listed first; unchanged fields are folded away behind a button.
 */
export function EventDiff({ before, after }: EventDiffProps) {
  const { t } = useTranslation();
  const [isUnchangedShown, setUnchangedShown] = useState(false);
  const unchangedId = useId();
  const diff = diffEventFields(before, after);
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
            <DiffRows rows={changed} />
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
                  <DiffRows rows={unchanged} />
                </Table.Tbody>
              </Table>
            ) : null}
          </Collapse>
        </>
      ) : null}
    </Stack>
  );
}
