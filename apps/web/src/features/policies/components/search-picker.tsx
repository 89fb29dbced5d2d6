import { MultiSelect, Select } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** How long a picker waits after the last keystroke before it searches the server. */
export const PICKER_DEBOUNCE_MS = 300;

/** An object as a picker option. */
export interface PickerOption {
  value: string;
  label: string;
}

/** A server-side search for a picker: the options matching `q`, fetched while `isEnabled`. */
export type UseOptionSearch = (
  q: string,
  isEnabled: boolean,
) => { options: PickerOption[]; isFetching: boolean };

/** What a picker says: its placeholder and "nothing found". */
export interface PickerTexts {
  placeholder: string;
  nothingFound: string;
}

/** The search box state of a picker: what is typed now, and the debounced search sent to the server. */
function useSearch(useOptions: UseOptionSearch, isOpen: boolean) {
  const [searchText, setSearchText] = useState('');
  const [q, setQ] = useState('');
  const applySearch = useDebouncedCallback((value: string) => setQ(value.trim()), PICKER_DEBOUNCE_MS);
  const { options, isFetching } = useOptions(q, isOpen || q !== '');
  return {
    found: options,
    isFetching,
    searchText,
    onSearchChange: (value: string) => {
      setSearchText(value);
      applySearch(value);
    },
  };
}

/**
 * The options to show: what the search found, then the picked values it did not find, labelled as last seen
 * in a search, else as the caller knows them, else by id.
 */
function withPicked(
  found: PickerOption[],
  picked: string[],
  seen: ReadonlyMap<string, string>,
  known: ReadonlyMap<string, string> | undefined,
) {
  const foundIds = new Set(found.map((option) => option.value));
  return [
    ...found,
    ...picked
      .filter((id) => !foundIds.has(id))
      .map((id) => ({ value: id, label: seen.get(id) ?? known?.get(id) ?? id })),
  ];
}

/** Props shared by the pickers. */
interface PickerProps {
  label: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  disabled?: boolean;
  useOptions: UseOptionSearch;
  texts: PickerTexts;
  /** Labels of picked values the caller knows (e.g. from the edited object). */
  knownLabels?: ReadonlyMap<string, string>;
}

/** Picks one object by a server-side search; the picked object keeps its label while the search moves on. */
export function SearchSelect({
  value,
  onChange,
  ...props
}: PickerProps & { value: string | null; onChange: (id: string | null) => void }) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const search = useSearch(props.useOptions, isOpen);
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(new Map());
  return (
    <Select
      label={props.label}
      description={props.description}
      error={props.error}
      disabled={props.disabled}
      placeholder={props.texts.placeholder}
      data={withPicked(search.found, value ? [value] : [], labels, props.knownLabels)}
      value={value}
      onChange={(next) => {
        const option = search.found.find((o) => o.value === next);
        if (option) setLabels(new Map(labels).set(option.value, option.label));
        onChange(next);
      }}
      searchable
      searchValue={search.searchText}
      onSearchChange={search.onSearchChange}
      filter={({ options }) => options}
      clearable
      onDropdownOpen={() => setOpen(true)}
      nothingFoundMessage={
        search.isFetching ? t('policies.picker.searching', 'Searching…') : props.texts.nothingFound
      }
    />
  );
}

/** Picks objects by a server-side search; picked objects keep their labels. */
export function SearchMultiSelect({
  value,
  onChange,
  ...props
}: PickerProps & { value: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const search = useSearch(props.useOptions, isOpen);
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(new Map());
  return (
    <MultiSelect
      label={props.label}
      description={props.description}
      error={props.error}
      disabled={props.disabled}
      placeholder={value.length === 0 ? props.texts.placeholder : undefined}
      data={withPicked(search.found, value, labels, props.knownLabels)}
      value={value}
      onChange={(ids) => {
        const next = new Map(labels);
        for (const option of search.found)
          if (ids.includes(option.value)) next.set(option.value, option.label);
        setLabels(next);
        onChange(ids);
      }}
      searchable
      searchValue={search.searchText}
      onSearchChange={search.onSearchChange}
      filter={({ options }) => options}
      hidePickedOptions
      clearable
      onDropdownOpen={() => setOpen(true)}
      nothingFoundMessage={
        search.isFetching ? t('policies.picker.searching', 'Searching…') : props.texts.nothingFound
      }
    />
  );
}
