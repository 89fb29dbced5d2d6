import { Stack, Text } from '@mantine/core';
import type { FormArrayElement } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteForm, SiteFormValues } from '../utils/site-form';
import type { CellProps } from './field-inputs';
import { RowTable } from './row-table';

/** The lists of the site form that are edited as a table of rows. */
type SiteList = 'lans' | 'vlans' | 'portForwards' | 'trafficFlows';

/** Props of {@link SiteListTable}; its texts come translated from the table. */
export interface SiteListTableProps<L extends SiteList, Column extends string> {
  form: SiteForm;
  isReadOnly: boolean;
  /** The form list the rows are. */
  list: L;
  /** What the list is for, above the table. */
  help: string;
  /** The column headers, by column. */
  headers: Record<Column, string>;
  /** The form field of a column, when it is not the column's own name. */
  fieldOf?: (column: Column) => string;
  label: string;
  rowName: (index: number) => string;
  emptyText: string;
  max: number;
  fullText: string;
  addLabel: string;
  newRow: () => FormArrayElement<SiteFormValues, L>;
  minWidth: number;
  /** The cells of one row; `cell(column)` binds an input to the row's field and names it. */
  renderCells: (
    cell: (column: Column) => CellProps,
    row: SiteFormValues[L][number],
    index: number,
  ) => ReactNode;
}

/**
 * One list of a site gateway's configuration: its help text, then its rows as an editable {@link RowTable}
 * bound to the form (add, remove, the list's error); each cell named "{field} of {row}".
 */
export function SiteListTable<L extends SiteList, Column extends string>({
  form,
  isReadOnly,
  list,
  help,
  headers,
  fieldOf = (column) => column,
  label,
  rowName,
  emptyText,
  max,
  fullText,
  addLabel,
  newRow,
  minWidth,
  renderCells,
}: SiteListTableProps<L, Column>) {
  const { t } = useTranslation();
  const rows: SiteFormValues[L][number][] = form.values[list];
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {help}
      </Text>
      <RowTable
        label={label}
        headers={Object.values<string>(headers)}
        rows={rows}
        getKey={(row) => row.key}
        rowName={rowName}
        emptyText={emptyText}
        max={max}
        fullText={fullText}
        addLabel={addLabel}
        onAdd={() => form.insertListItem(list, newRow())}
        onRemove={(index) => form.removeListItem(list, index)}
        isReadOnly={isReadOnly}
        error={form.errors[list]}
        minWidth={minWidth}
        renderCells={(row, index) =>
          renderCells(
            (column) => ({
              form,
              path: `${list}.${index}.${fieldOf(column)}`,
              label: t('sites.fieldOfRow', '{{field}} of {{row}}', {
                field: headers[column],
                row: rowName(index),
              }),
              isReadOnly,
            }),
            row,
            index,
          )
        }
      />
    </Stack>
  );
}
