import { Select } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { UserDevices } from '@palisade/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { useEndUser, useEndUserSearch } from '../api/search-end-users';

/** How long the picker waits after the last keystroke before it searches the server. */
export const USER_PICKER_DEBOUNCE_MS = 300;

/** A user as an option: the full name with the username, or the username. */
export const endUserLabel = (user: Pick<UserDevices, 'fullname' | 'username'>) =>
  user.fullname ? `${user.fullname} (${user.username})` : user.username;

/** Props of {@link EndUserSelect}. */
export interface EndUserSelectProps {
  label: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  /** The picked user's id, or null. */
  value: string | null;
  /** The picked user (with their devices and enrolment state), or null when cleared. */
  onChange: (user: UserDevices | null) => void;
  w?: number | string | Record<string, number | string>;
}

/**
 * Picks one end user by a server-side search (name or username). The picked user keeps their label while the
 * search moves on; a user picked before (an id in the address) is looked up for their name.
 */
export function EndUserSelect({ label, description, placeholder, value, onChange, w }: EndUserSelectProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const [isOpen, setOpen] = useState(false);
  const [searchText, setSearchText] = useState('');
  const [q, setQ] = useState('');
  const applySearch = useDebouncedCallback((text: string) => setQ(text.trim()), USER_PICKER_DEBOUNCE_MS);
  const search = useEndUserSearch(tenant, q, isOpen || q !== '');
  const picked = useEndUser(tenant, value);
  const [seen, setSeen] = useState<ReadonlyMap<string, UserDevices>>(new Map());

  const found = search.data?.items ?? [];
  const pickedUser = value
    ? (found.find((user) => user.id === value) ?? seen.get(value) ?? picked.data)
    : null;
  const data = found.map((user) => ({ value: user.id, label: endUserLabel(user) }));
  if (value && !found.some((user) => user.id === value)) {
    data.push({ value, label: pickedUser ? endUserLabel(pickedUser) : value });
  }

  return (
    <Select
      label={label}
      description={description}
      placeholder={placeholder ?? t('devices.userPicker.placeholder', 'Search users')}
      data={data}
      value={value}
      onChange={(next) => {
        const user = found.find((option) => option.id === next) ?? null;
        if (user) setSeen(new Map(seen).set(user.id, user));
        onChange(next ? (user ?? seen.get(next) ?? null) : null);
      }}
      searchable
      searchValue={searchText}
      onSearchChange={(text) => {
        setSearchText(text);
        applySearch(text);
      }}
      filter={({ options }) => options}
      clearable
      onDropdownOpen={() => setOpen(true)}
      nothingFoundMessage={
        search.isFetching
          ? t('devices.userPicker.searching', 'Searching…')
          : t('devices.userPicker.none', 'No matching user')
      }
      w={w}
    />
  );
}
