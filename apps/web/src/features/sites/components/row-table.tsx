import { Button, CloseButton, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of {@link RowTable}. */
export interface RowTableProps<Row> {
  /** The table's accessible name ("LANs"). */
  label: string;
  /** The column headers of a row's cells, in order. */
  headers: string[];
  rows: Row[];
  getKey: (row: Row) => string;
  /** The cells (`Table.Td`) of one row. */
  renderCells: (row: Row, index: number) => ReactNode;
  /** Accessible name of row `index` for its remove button ("LAN row 2"). */
  rowName: (index: number) => string;
  /** Shown in the table while it has no rows. */
  emptyText: string;
  /** At most this many rows; "Add" is disabled at the limit, with `fullText` beside it. */
  max: number;
  fullText: string;
  addLabel: string;
  onAdd: () => void;
  onRemove: (index: number) => void;
  /** Read-only: no add and remove buttons. */
  isReadOnly?: boolean;
  /** A problem of the whole list (too many rows…). */
  error?: ReactNode;
  /** Below this width the table scrolls sideways rather than squeezing its inputs. */
  minWidth?: number;
}

/**
 * An editable table of configuration rows: column headers, one row per entry with its inputs and a remove
 * button, a counter ("3 / 10"), the list's own error, and the add button, disabled with a hint at the limit. The
 * focus follows the edits: into the new row after an add, to the next row (or the add button) after a remove.
 */
export function RowTable<Row>({
  label,
  headers,
  rows,
  getKey,
  renderCells,
  rowName,
  emptyText,
  max,
  fullText,
  addLabel,
  onAdd,
  onRemove,
  isReadOnly = false,
  error,
  minWidth = 760,
}: RowTableProps<Row>) {
  const { t } = useTranslation();
  const body = useRef<HTMLTableSectionElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const [focusRow, setFocusRow] = useState<number | null>(null);
  const fullId = useId();
  const isFull = rows.length >= max;

  useEffect(() => {
    if (focusRow === null) return;
    setFocusRow(null);
    const row = body.current?.querySelectorAll<HTMLTableRowElement>('tr[data-row]')[focusRow];
    const target = row?.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]), button');
    (target ?? addButton.current)?.focus();
  }, [focusRow]);

  return (
    <Stack gap="xs">
      <Group justify="flex-end">
        <Text size="xs" c={isFull ? 'orange' : 'dimmed'} aria-live="polite">
          {t('sites.counter', '{{count, number}} / {{max, number}}', { count: rows.length, max })}
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="xs" aria-label={label} layout="auto">
          <Table.Thead>
            <Table.Tr>
              {headers.map((header) => (
                <Table.Th key={header} scope="col">
                  {header}
                </Table.Th>
              ))}
              {isReadOnly ? null : (
                <Table.Th scope="col" w={40}>
                  <VisuallyHidden>{t('sites.actions', 'Actions')}</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody ref={body}>
            {rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={headers.length + (isReadOnly ? 0 : 1)}>
                  <Text size="sm" c="dimmed">
                    {emptyText}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {rows.map((row, index) => (
              <Table.Tr key={getKey(row)} data-row style={{ verticalAlign: 'top' }}>
                {renderCells(row, index)}
                {isReadOnly ? null : (
                  <Table.Td>
                    <CloseButton
                      mt={4}
                      aria-label={t('sites.remove', 'Remove {{row}}', { row: rowName(index) })}
                      onClick={() => {
                        onRemove(index);
                        setFocusRow(index);
                      }}
                    />
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
      {isReadOnly ? null : (
        <Group gap="sm">
          <Button
            ref={addButton}
            variant="light"
            size="xs"
            disabled={isFull}
            aria-describedby={isFull ? fullId : undefined}
            onClick={() => {
              onAdd();
              setFocusRow(rows.length);
            }}
          >
            {addLabel}
          </Button>
          {isFull ? (
            <Text size="xs" c="dimmed" id={fullId}>
              {fullText}
            </Text>
          ) : null}
        </Group>
      )}
    </Stack>
  );
}
