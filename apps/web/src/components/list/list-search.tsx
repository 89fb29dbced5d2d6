import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/** How long a list's search waits after the last keystroke before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/** Props of {@link ListSearch}. */
export interface ListSearchProps {
  /** The search the list shows now (from the address or the screen's state). */
  value: string;
  /** Called with what was typed once typing stops for {@link SEARCH_DEBOUNCE_MS}. */
  onSearch: (text: string) => void;
  label: string;
  placeholder?: string;
}

/**
 * The search box of a server-paged list: it shows what is typed at once and searches once typing stops, so the
 * server gets one request per word, not one per key. When the search changes under it (Back, Forward, a
 * "Clear" elsewhere), the box follows.
 */
export function ListSearch({ value, onSearch, label, placeholder }: ListSearchProps) {
  const [text, setText] = useState(value);
  const apply = useDebouncedCallback(onSearch, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    setText((current) => (current.trim() === value.trim() ? current : value));
  }, [value]);
  return (
    <TextInput
      type="search"
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        apply(event.currentTarget.value);
      }}
      w={{ base: '100%', sm: 320 }}
    />
  );
}
