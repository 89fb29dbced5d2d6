import { MultiSelect } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { UserDevices } from '@palisade/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { useEndUserSearch } from '../api/lookups';

/** How long the picker waits after the last keystroke before it searches the server. */
export const USER_SEARCH_DEBOUNCE_MS = 300;

/** A user as an option: the full name with the username, or the username. */
export const endUserLabel = (user: Pick<UserDevices, 'fullname' | 'username'>) =>
  user.fullname ? `${user.fullname} (${user.username})` : user.username;

/** Props of {@link UserMultiSelect}. */
export interface UserMultiSelectProps {
  label: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  value: string[];
  onChange: (ids: string[]) => void;
  onFocus?: () => void;
  onBlur?: () => void;
  disabled?: boolean;
  /** The form's field path (from `getInputProps`), so the form can focus the picker. */
  'data-path'?: string;
  /** Labels of picked users the caller knows (the edited entry's users). */
  knownLabels?: ReadonlyMap<string, string>;
}

/**
 * Picks end users by a server-side search (name or username). Picked users keep their labels while the search
 * moves on: as last seen in a search, else as the caller knows them.
 */
export function UserMultiSelect({ value, onChange, knownLabels, ...props }: UserMultiSelectProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const [isOpen, setOpen] = useState(false);
  const [searchText, setSearchText] = useState('');
  const [q, setQ] = useState('');
  const applySearch = useDebouncedCallback((text: string) => setQ(text.trim()), USER_SEARCH_DEBOUNCE_MS);
  const search = useEndUserSearch(tenant, q, isOpen || q !== '');
  const [seen, setSeen] = useState<ReadonlyMap<string, string>>(new Map());

  const found = (search.data?.items ?? []).map((user) => ({ value: user.id, label: endUserLabel(user) }));
  const foundIds = new Set(found.map((option) => option.value));
  const data = [
    ...found,
    ...value
      .filter((id) => !foundIds.has(id))
      .map((id) => ({ value: id, label: seen.get(id) ?? knownLabels?.get(id) ?? id })),
  ];

  return (
    <MultiSelect
      {...props}
      placeholder={value.length === 0 ? t('privateAccess.form.usersPlaceholder', 'Search users') : undefined}
      data={data}
      value={value}
      onChange={(ids) => {
        const next = new Map(seen);
        for (const option of found) if (ids.includes(option.value)) next.set(option.value, option.label);
        setSeen(next);
        onChange(ids);
      }}
      searchable
      searchValue={searchText}
      onSearchChange={(text) => {
        setSearchText(text);
        applySearch(text);
      }}
      filter={({ options }) => options}
      hidePickedOptions
      clearable
      onDropdownOpen={() => setOpen(true)}
      nothingFoundMessage={
        search.isFetching
          ? t('privateAccess.form.usersSearching', 'Searching…')
          : t('privateAccess.form.usersNone', 'No matching user')
      }
    />
  );
}
