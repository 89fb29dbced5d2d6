import type { ComboboxItem } from '@mantine/core';
import { NumberInput, Select, Switch, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import type { SiteForm } from '../utils/site-form';

/**
 * The inputs of a configuration table's cells, each bound to its form field by its contract path (so its
 * error, from the client's check or the server's details, shows under it) and named for screen readers by
 * `label` (the column header and the row: "Address of LAN row 2").
 */
export interface CellProps {
  form: SiteForm;
  /** The field's path, `lans.0.address`. */
  path: string;
  label: string;
  isReadOnly: boolean;
}

/** A text input in a table cell. */
export function TextCell({
  form,
  path,
  label,
  isReadOnly,
  placeholder,
  maxLength = 64,
  minWidth = 140,
}: CellProps & { placeholder?: string; maxLength?: number; minWidth?: number }) {
  return (
    <Table.Td>
      <TextInput
        aria-label={label}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        maxLength={maxLength}
        disabled={isReadOnly}
        miw={minWidth}
        {...form.getInputProps(path)}
      />
    </Table.Td>
  );
}

/** A whole-number input in a table cell (empty while not given). */
export function NumberCell({
  form,
  path,
  label,
  isReadOnly,
  min,
  max,
  placeholder,
  prefix,
  width = 90,
}: CellProps & { min: number; max: number; placeholder?: string; prefix?: string; width?: number }) {
  return (
    <Table.Td>
      <NumberInput
        aria-label={label}
        placeholder={placeholder}
        min={min}
        max={max}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        hideControls
        prefix={prefix}
        disabled={isReadOnly}
        w={width}
        {...form.getInputProps(path)}
      />
    </Table.Td>
  );
}

/** A choice of fixed options in a table cell. */
export function SelectCell({
  form,
  path,
  label,
  isReadOnly,
  data,
  placeholder,
  width = 150,
}: CellProps & { data: ComboboxItem[]; placeholder?: string; width?: number }) {
  return (
    <Table.Td>
      <Select
        aria-label={label}
        data={data}
        placeholder={placeholder}
        allowDeselect={false}
        disabled={isReadOnly}
        w={width}
        {...form.getInputProps(path)}
      />
    </Table.Td>
  );
}

/** An on/off switch in a table cell. */
export function SwitchCell({ form, path, label, isReadOnly }: CellProps) {
  return (
    <Table.Td>
      <Switch
        mt={6}
        aria-label={label}
        disabled={isReadOnly}
        {...form.getInputProps(path, { type: 'checkbox' })}
      />
    </Table.Td>
  );
}

/** A cell with nothing to enter: a dimmed dash, and `srText` for screen readers ("not used"). */
export function EmptyCell({ srText }: { srText: string }) {
  return (
    <Table.Td>
      <Text size="sm" c="dimmed" mt={6} aria-hidden>
        —
      </Text>
      <VisuallyHidden>{srText}</VisuallyHidden>
    </Table.Td>
  );
}
