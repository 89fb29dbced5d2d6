import { Select } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { useDeviceOptions } from '../api/lookups';

/** How long the picker waits after the last keystroke before it searches the server. */
export const DEVICE_SEARCH_DEBOUNCE_MS = 300;

/**
 * Picks an enrolled device by a server-side search on its name and its owner's username, and hands it on at once
 * (the route screen opens the route as that device gets it).
 */
export function DevicePicker({ onPick }: { onPick: (deviceId: string) => void }) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const [isOpen, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const applySearch = useDebouncedCallback((value: string) => setQ(value.trim()), DEVICE_SEARCH_DEBOUNCE_MS);
  const optionsQuery = useDeviceOptions(tenant, q, isOpen || q !== '');
  const options = (optionsQuery.data ?? []).map((device) => ({
    value: device.id,
    label: device.username ? `${device.name} (${device.username})` : device.name,
  }));
  return (
    <Select
      label={t('routes.check.device', 'Device')}
      description={t('routes.check.deviceHint', 'Search by device name or user.')}
      placeholder={t('routes.check.placeholder', 'Find a device')}
      data={options}
      value={null}
      onChange={(id) => {
        if (id) onPick(id);
      }}
      searchable
      searchValue={text}
      onSearchChange={(value) => {
        setText(value);
        applySearch(value);
      }}
      filter={({ options: all }) => all}
      onDropdownOpen={() => setOpen(true)}
      nothingFoundMessage={
        optionsQuery.isFetching
          ? t('routes.check.searching', 'Searching…')
          : t('routes.check.nothingFound', 'No device found')
      }
      maw={420}
    />
  );
}
