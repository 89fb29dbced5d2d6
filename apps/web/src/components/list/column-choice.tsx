import { Button, Checkbox, type MantineTheme, Popover, Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession, useWorkingTenant } from '../../lib/auth';

/** A column of a server-paged list: a mantine-datatable column plus what the column chooser and phones need. */
export type ListColumn<T> = DataTableColumn<T> & {
  accessor: string;
  /** Its name in the column chooser; the title when that is text. */
  label?: string;
  /** Hidden until the administrator shows it in the column chooser. */
  isHiddenByDefault?: boolean;
  /** Always shown: the chooser does not offer it (the first column, the row's actions). */
  isAlwaysShown?: boolean;
  /** Kept on phones; the other columns appear from the `sm` breakpoint up, so no page scrolls sideways. */
  isEssential?: boolean;
};

/** Phones show the essential columns only; the others appear from the `sm` breakpoint (48em) up. */
const FROM_SM = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;

/**
 * The table's columns of a list: those `isShown` leaves out are hidden, and on phones only the essential ones
 * are shown (a list without a column chooser shows every column from `sm` up).
 */
export function toTableColumns<T>(
  columns: ListColumn<T>[],
  isShown: (column: ListColumn<T>) => boolean = () => true,
): DataTableColumn<T>[] {
  return columns.map(
    (
      { label: _label, isHiddenByDefault: _default, isAlwaysShown: _always, isEssential, ...column },
      index,
    ) => ({
      ...column,
      hidden: column.hidden || !isShown(columns[index]),
      ...(isEssential ? {} : { visibleMediaQuery: FROM_SM }),
    }),
  ) as DataTableColumn<T>[];
}

/** Which columns an administrator chose to show (true) or hide (false); others follow their default. */
type Choice = Record<string, boolean>;

/** Where a list's column choice is kept: per list, tenant and administrator, in this browser. */
export function columnChoiceKey(listId: string, tenant: string, userId: string): string {
  return `palisade.columns.${listId}.${tenant}.${userId}`;
}

function readChoice(key: string): Choice {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key) ?? '{}');
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {};
    return Object.fromEntries(Object.entries(stored).filter(([, shown]) => typeof shown === 'boolean'));
  } catch {
    return {};
  }
}

/** What {@link useColumnChoice} answers: the columns to hand to the table, and what the chooser needs. */
export interface ColumnChoice<T> {
  /** Every column, the hidden ones marked `hidden`, the non-essential ones hidden on phones. */
  columns: DataTableColumn<T>[];
  /** The columns the chooser offers, with whether each is shown. */
  options: Array<{ accessor: string; label: string; isShown: boolean }>;
  setShown: (accessor: string, isShown: boolean) => void;
  /** Back to the list's default columns. */
  reset: () => void;
}

/**
 * The columns a list shows: its defaults, changed by what the administrator chose in the column chooser. The
 * choice is kept in this browser's local storage under the list, the tenant and the administrator, so each
 * administrator gets their own columns in each tenant they work in, and keeps them across sign-ins.
 */
export function useColumnChoice<T>(listId: string, columns: ListColumn<T>[]): ColumnChoice<T> {
  const tenant = useWorkingTenant();
  const { session } = useSession();
  const key = columnChoiceKey(listId, tenant, session?.userid ?? '');
  const [stored, setStored] = useState<{ key: string; choice: Choice }>(() => ({
    key,
    choice: readChoice(key),
  }));
  // Another tenant or administrator: their own choice.
  useEffect(() => {
    if (stored.key !== key) setStored({ key, choice: readChoice(key) });
  }, [key, stored.key]);
  const choice = stored.key === key ? stored.choice : readChoice(key);

  const save = useCallback(
    (next: Choice) => {
      setStored({ key, choice: next });
      if (Object.keys(next).length === 0) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(next));
    },
    [key],
  );

  return useMemo(() => {
    const isShown = (column: ListColumn<T>) =>
      column.isAlwaysShown === true || (choice[column.accessor] ?? !column.isHiddenByDefault);
    const tableColumns = toTableColumns(columns, isShown);
    const options = columns
      .filter((column) => !column.isAlwaysShown && !column.hidden)
      .map((column) => ({
        accessor: column.accessor,
        label: column.label ?? (typeof column.title === 'string' ? column.title : column.accessor),
        isShown: isShown(column),
      }));
    const defaults = Object.fromEntries(
      columns.map((column) => [column.accessor, !column.isHiddenByDefault]),
    );
    return {
      columns: tableColumns,
      options,
      setShown: (accessor: string, shown: boolean) => {
        const next = { ...choice, [accessor]: shown };
        // Only what differs from the default is kept, so a later default change still reaches everyone else.
        if (defaults[accessor] === shown) delete next[accessor];
        save(next);
      },
      reset: () => save({}),
    };
  }, [columns, choice, save]);
}

/** Props of {@link ColumnChooser}. */
export interface ColumnChooserProps {
  choice: Pick<ColumnChoice<unknown>, 'options' | 'setShown' | 'reset'>;
}

/** The "Columns" button of a list: a checkbox per column the administrator may show or hide, and a reset. */
export function ColumnChooser({ choice }: ColumnChooserProps) {
  const { t } = useTranslation();
  const legendId = useId();
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default">{t('common.list.columns', 'Columns')}</Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-labelledby={legendId}>
          <Text id={legendId} size="sm" fw={600}>
            {t('common.list.columnsShown', 'Columns shown')}
          </Text>
          {choice.options.map((option) => (
            <Checkbox
              key={option.accessor}
              label={option.label}
              checked={option.isShown}
              onChange={(event) => choice.setShown(option.accessor, event.currentTarget.checked)}
            />
          ))}
          <Button variant="subtle" size="compact-sm" onClick={choice.reset}>
            {t('common.list.columnsReset', 'Default columns')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
