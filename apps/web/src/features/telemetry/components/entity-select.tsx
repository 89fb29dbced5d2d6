import { Select } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { type FilterEntity, useFilterOption, useFilterOptions } from '../api/get-filter-options';

/** How long a filter waits after the last keystroke before it searches the server. */
export const FILTER_SEARCH_DEBOUNCE_MS = 300;

/** Props of {@link EntitySelect}. */
export interface EntitySelectProps {
  entity: FilterEntity;
  label: string;
  placeholder: string;
  /** The picked id, or empty for any. */
  value: string;
  onChange: (id: string) => void;
  /** Names the screen already knows (from the rows on screen), so a picked id needs no look-up. */
  knownNames: ReadonlyMap<string, string>;
  /** False until the rows are in: a picked id is looked up only when they do not name it. */
  canLookUp: boolean;
}

/**
 * Picks one user, device or gateway by a server-side search of its list. The picked one keeps its name while
 * the search moves on; an id that came with the address is named from the rows on screen, else looked up.
 */
export function EntitySelect({
  entity,
  label,
  placeholder,
  value,
  onChange,
  knownNames,
  canLookUp,
}: EntitySelectProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const [isOpen, setOpen] = useState(false);
  const [searchText, setSearchText] = useState('');
  const [q, setQ] = useState('');
  const [seen, setSeen] = useState<ReadonlyMap<string, string>>(new Map());
  const applySearch = useDebouncedCallback((text: string) => setQ(text.trim()), FILTER_SEARCH_DEBOUNCE_MS);
  const search = useFilterOptions(tenant, entity, q, isOpen || q !== '');

  const found = search.data ?? [];
  const knownName = value
    ? (found.find((option) => option.value === value)?.label ?? seen.get(value) ?? knownNames.get(value))
    : undefined;
  const lookedUp = useFilterOption(
    tenant,
    entity,
    canLookUp && value && knownName === undefined ? value : null,
  );
  const data = [...found];
  if (value && !found.some((option) => option.value === value)) {
    data.push({ value, label: knownName ?? lookedUp.data ?? value });
  }

  return (
    <Select
      label={label}
      placeholder={placeholder}
      data={data}
      value={value || null}
      onChange={(next) => {
        const option = found.find((candidate) => candidate.value === next);
        if (option) setSeen(new Map(seen).set(option.value, option.label));
        onChange(next ?? '');
      }}
      searchable
      searchValue={searchText}
      onSearchChange={(text) => {
        setSearchText(text);
        applySearch(text);
      }}
      // The server searched already; the options are its answer.
      filter={({ options }) => options}
      clearable
      onDropdownOpen={() => setOpen(true)}
      nothingFoundMessage={
        search.isFetching
          ? t('telemetry.filters.searching', 'Searching…')
          : t('telemetry.filters.nothingFound', 'Nothing found')
      }
      w={{ base: '100%', sm: 220 }}
    />
  );
}
