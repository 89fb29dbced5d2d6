import { Button, MultiSelect, Group as Row } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useAddGroupMembers } from '../api/change-group-members';
import { useUserSearch } from '../api/search-users';

/** How long the picker waits after the last keystroke before it searches the server. */
export const USER_SEARCH_DEBOUNCE_MS = 300;

/** Props of {@link AddMembers}. */
export interface AddMembersProps {
  groupId: string;
}

/**
 * Picks end users by a server-side search (names, username, e-mail) and adds them to the group. Picked users
 * keep their labels while the search moves on to other names.
 */
export function AddMembers({ groupId }: AddMembersProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const [searchText, setSearchText] = useState('');
  const [q, setQ] = useState('');
  const applySearch = useDebouncedCallback((value: string) => setQ(value.trim()), USER_SEARCH_DEBOUNCE_MS);
  const [isOpen, setOpen] = useState(false);
  const [picked, setPicked] = useState<string[]>([]);
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(new Map());

  const usersQuery = useUserSearch(tenant, q, isOpen || q !== '');
  const found = (usersQuery.data?.items ?? []).map((user) => ({
    value: user.id,
    label: `${user.fullname} (${user.username})`,
  }));
  const foundIds = new Set(found.map((option) => option.value));
  const data = [
    ...found,
    ...picked.filter((id) => !foundIds.has(id)).map((id) => ({ value: id, label: labels.get(id) ?? id })),
  ];

  const addMutation = useAddGroupMembers(tenant, groupId, {
    onSuccess: ({ added }) => {
      showSuccess(
        t('groups.members.added', {
          count: added,
          defaultValue_one: '{{count}} member added.',
          defaultValue_other: '{{count}} members added.',
        }),
      );
      setPicked([]);
    },
  });

  const handleChange = (ids: string[]) => {
    const next = new Map(labels);
    for (const option of found) if (ids.includes(option.value)) next.set(option.value, option.label);
    setLabels(next);
    setPicked(ids);
  };

  return (
    <Row align="flex-end" gap="sm" wrap="nowrap">
      <MultiSelect
        label={t('groups.members.addLabel', 'Add members')}
        placeholder={picked.length === 0 ? t('groups.members.addPlaceholder', 'Search users') : undefined}
        data={data}
        value={picked}
        onChange={handleChange}
        searchable
        searchValue={searchText}
        onSearchChange={(value) => {
          setSearchText(value);
          applySearch(value);
        }}
        // The server already searched (names, username and e-mail); do not filter its answer again.
        filter={({ options }) => options}
        hidePickedOptions
        clearable
        onDropdownOpen={() => setOpen(true)}
        nothingFoundMessage={
          usersQuery.isFetching
            ? t('groups.members.searching', 'Searching…')
            : t('groups.members.noUser', 'No matching user')
        }
        style={{ flex: 1 }}
        maw={560}
      />
      <Button
        onClick={() => addMutation.mutate(picked)}
        disabled={picked.length === 0}
        loading={addMutation.isPending}
      >
        {t('groups.members.add', 'Add to group')}
      </Button>
    </Row>
  );
}
