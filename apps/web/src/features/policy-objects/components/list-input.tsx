import { Button, CloseButton, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of {@link ListInput}. */
export interface ListInputProps {
  /** The fieldset's legend, e.g. "Networks". */
  legend: string;
  /** A line under the legend. */
  description?: ReactNode;
  /** The entries as they are now. */
  values: string[];
  /** At most this many entries; "Add" is disabled at the limit. */
  max: number;
  /** Accessible name of one entry, 1-based: "Network 3". */
  itemLabel: (position: number) => string;
  /** Text of the add button. */
  addLabel: string;
  placeholder?: string;
  /** An error of the whole list (none given, too many). */
  error?: ReactNode;
  /** Input props of entry `index` (value, onChange, error), from the form. */
  getItemProps: (index: number) => GetInputPropsReturnType;
  onAdd: () => void;
  onRemove: (index: number) => void;
}

/**
 * A list of text entries with add and remove, for networks, domains and IPs. Shows how many entries there are
 * of the most allowed ("3 / 16"), disables "Add" at the limit, puts each entry's error on its own input and
 * moves the focus to a new entry.
 */
export function ListInput({
  legend,
  description,
  values,
  max,
  itemLabel,
  addLabel,
  placeholder,
  error,
  getItemProps,
  onAdd,
  onRemove,
}: ListInputProps) {
  const { t } = useTranslation();
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const isFull = values.length >= max;

  useEffect(() => {
    if (focusIndex === null) return;
    inputs.current[Math.min(focusIndex, values.length - 1)]?.focus();
    setFocusIndex(null);
  }, [focusIndex, values.length]);

  return (
    <Fieldset
      legend={legend}
      variant="unstyled"
      styles={{ legend: { fontWeight: 500, fontSize: 'var(--mantine-font-size-sm)' } }}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          {description ? (
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          ) : (
            <span />
          )}
          <Text size="xs" c={isFull ? 'orange' : 'dimmed'} aria-live="polite">
            {t('policyObjects.list.counter', '{{count}} / {{max}}', { count: values.length, max })}
          </Text>
        </Group>
        {values.map((_value, index) => {
          const position = index + 1;
          return (
            // Entries have no identity but their position; the form keeps values by index too.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                aria-label={itemLabel(position)}
                placeholder={placeholder}
                autoComplete="off"
                style={{ flex: 1 }}
                ref={(node) => {
                  inputs.current[index] = node;
                }}
                {...getItemProps(index)}
              />
              <CloseButton
                mt={4}
                aria-label={t('policyObjects.list.remove', 'Remove {{item}}', { item: itemLabel(position) })}
                onClick={() => {
                  onRemove(index);
                  setFocusIndex(index);
                }}
              />
            </Group>
          );
        })}
        {error ? (
          <Text size="xs" c="red" role="alert">
            {error}
          </Text>
        ) : null}
        <Group gap="sm">
          <Button
            variant="light"
            size="xs"
            disabled={isFull}
            onClick={() => {
              onAdd();
              setFocusIndex(values.length);
            }}
          >
            {addLabel}
          </Button>
          {isFull ? (
            <Text size="xs" c="dimmed">
              {t('policyObjects.list.full', 'The limit of {{max}} is reached.', { max })}
            </Text>
          ) : null}
        </Group>
      </Stack>
    </Fieldset>
  );
}
