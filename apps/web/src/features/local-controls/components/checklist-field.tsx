import { Checkbox, ScrollArea, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../utils/controls';

/** From how many options on a search box narrows the list. */
export const SEARCH_FROM = 10;

/** One entry to choose: its id, its name and a short line about it (type, state, size…). */
export interface ChecklistOption {
  value: string;
  label: string;
  details?: string;
}

/** Props of {@link ChecklistField}. */
export interface ChecklistFieldProps {
  /** The group's name (its legend). */
  label: string;
  /** Under the name: how many are chosen, what a choice does. */
  description?: ReactNode;
  options: ChecklistOption[];
  value: string[];
  onChange: (value: string[]) => void;
  errors: FieldErrors;
  isReadOnly: boolean;
  /** The most that may be chosen; a choice past it is refused and {@link limitMessage} says why. */
  max?: number;
  limitMessage?: string;
  /** Label of the search box (shown from {@link SEARCH_FROM} options on). */
  searchLabel: string;
  /** Shown when there is nothing to choose from. */
  emptyMessage: string;
  /** Name of a chosen entry the options no longer hold. */
  unknownLabel: (id: string) => string;
}

/** The chosen entries in the order of the options; entries the options do not hold keep their place at the end. */
function inOptionOrder(value: readonly string[], options: readonly ChecklistOption[]): string[] {
  const position = new Map(options.map((option, index) => [option.value, index]));
  return [...value].sort((a, b) => (position.get(a) ?? options.length) - (position.get(b) ?? options.length));
}

/**
 * A labelled group of checkboxes to choose entries of a list, with a search box when the list is long. The
 * server's problems show at the group and at the entry they are about; a choice past `max` is refused with
 * `limitMessage` (announced, at the group) until one is taken off again.
 */
export function ChecklistField({
  label,
  description,
  options,
  value,
  onChange,
  errors,
  isReadOnly,
  max,
  limitMessage,
  searchLabel,
  emptyMessage,
  unknownLabel,
}: ChecklistFieldProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [isLimitRefused, setLimitRefused] = useState(false);
  const known = new Set(options.map((option) => option.value));
  // A chosen entry the options no longer hold stays visible, so it can be taken off.
  const all: ChecklistOption[] = [
    ...options,
    ...value.filter((id) => !known.has(id)).map((id) => ({ value: id, label: unknownLabel(id) })),
  ];
  const needle = search.trim().toLocaleLowerCase();
  const shown = needle
    ? all.filter((option) => `${option.label} ${option.details ?? ''}`.toLocaleLowerCase().includes(needle))
    : all;

  const handleChange = (next: string[]) => {
    if (max !== undefined && next.length > max) {
      setLimitRefused(true);
      return;
    }
    setLimitRefused(false);
    onChange(inOptionOrder(next, options));
  };

  if (all.length === 0) {
    return (
      <Stack gap={4}>
        <Text fw={500} size="sm">
          {label}
        </Text>
        <Text size="sm" c="dimmed">
          {emptyMessage}
        </Text>
      </Stack>
    );
  }
  // The refusal stands while the list is full; taking one off (or discarding the changes) ends it.
  const isFull = max !== undefined && value.length >= max;
  const groupError = (isLimitRefused && isFull && limitMessage) || errors.list;
  return (
    <Stack gap="sm">
      {all.length >= SEARCH_FROM ? (
        <TextInput
          type="search"
          label={searchLabel}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', sm: 320 }}
        />
      ) : null}
      <Checkbox.Group
        label={label}
        description={description}
        value={value}
        onChange={handleChange}
        error={groupError || undefined}
        errorProps={{ role: 'alert' }}
        readOnly={isReadOnly}
      >
        {shown.length === 0 ? (
          <Text size="sm" c="dimmed" mt="xs">
            {t('localControls.noMatch', 'Nothing matches the search.')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={480} type="auto" offsetScrollbars mt="xs">
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" verticalSpacing="sm" p={2}>
              {shown.map((option) => (
                <Checkbox
                  key={option.value}
                  value={option.value}
                  label={option.label}
                  description={option.details}
                  error={errors.items[option.value]}
                  disabled={isReadOnly}
                />
              ))}
            </SimpleGrid>
          </ScrollArea.Autosize>
        )}
      </Checkbox.Group>
    </Stack>
  );
}
