import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { useDeviceById, useDeviceSearch, useGroupSearch, useUserById, useUserSearch } from '../api/lookups';
import { type PickerOption, type PickerTexts, SearchMultiSelect, SearchSelect } from './search-picker';

/** Shows an end user's name for an id (the id while loading or when the user is gone). */
export function UserName({ id }: { id: string }) {
  const tenant = useWorkingTenant();
  const query = useUserById(tenant, id);
  return <>{query.data ? query.data.username : id}</>;
}

function useUserOptions(q: string, isEnabled: boolean) {
  const query = useUserSearch(useWorkingTenant(), q, isEnabled);
  const options: PickerOption[] = (query.data?.items ?? []).map((user) => ({
    value: user.id,
    label: user.fullname ? `${user.fullname} (${user.username})` : user.username,
  }));
  return { options, isFetching: query.isFetching };
}

function useGroupOptions(q: string, isEnabled: boolean) {
  const query = useGroupSearch(useWorkingTenant(), q, isEnabled);
  const options: PickerOption[] = (query.data?.items ?? []).map((group) => ({
    value: group.id,
    label: group.name,
  }));
  return { options, isFetching: query.isFetching };
}

/** A device as an option: its name, and whose it is. */
export const deviceLabel = (device: { name: string; username: string | null }) =>
  device.username ? `${device.name} (${device.username})` : device.name;

/** An enrolled device's name and owner for an id (the id while loading or when the device is gone). */
export function useDeviceLabel(id: string) {
  const query = useDeviceById(useWorkingTenant(), id);
  return query.data ? deviceLabel(query.data) : id;
}

function useDeviceOptions(q: string, isEnabled: boolean) {
  const query = useDeviceSearch(useWorkingTenant(), q, isEnabled);
  const options: PickerOption[] = (query.data ?? []).map((device) => ({
    value: device.id,
    label: deviceLabel(device),
  }));
  return { options, isFetching: query.isFetching };
}

const userTexts = (t: TFunction): PickerTexts => ({
  placeholder: t('policies.picker.searchUsers', 'Search users'),
  nothingFound: t('policies.picker.noUser', 'No matching user'),
});

const deviceTexts = (t: TFunction): PickerTexts => ({
  placeholder: t('policies.picker.searchDevices', 'Search devices or their users'),
  nothingFound: t('policies.picker.noDevice', 'No matching device'),
});

/** Props of the single pickers. */
export interface SelectProps {
  label: ReactNode;
  value: string | null;
  onChange: (id: string | null) => void;
  error?: ReactNode;
  description?: ReactNode;
}

/** Props of the multiple pickers. */
export interface MultiSelectProps {
  label: ReactNode;
  value: string[];
  /** Labels of already picked values (e.g. from the edited object). */
  knownLabels?: ReadonlyMap<string, string>;
  onChange: (ids: string[]) => void;
  error?: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
}

/** Picks one end user by a server-side search. */
export function UserSelect({ value, ...props }: SelectProps) {
  const { t } = useTranslation();
  const picked = useUserById(useWorkingTenant(), value);
  return (
    <SearchSelect
      {...props}
      value={value}
      useOptions={useUserOptions}
      knownLabels={value && picked.data ? new Map([[value, picked.data.username]]) : undefined}
      texts={userTexts(t)}
    />
  );
}

/** Picks end users by a server-side search. */
export function UserMultiSelect(props: MultiSelectProps) {
  const { t } = useTranslation();
  return <SearchMultiSelect {...props} useOptions={useUserOptions} texts={userTexts(t)} />;
}

/** Picks user groups by a server-side search. */
export function GroupMultiSelect(props: MultiSelectProps) {
  const { t } = useTranslation();
  return (
    <SearchMultiSelect
      {...props}
      useOptions={useGroupOptions}
      texts={{
        placeholder: t('policies.picker.searchGroups', 'Search groups'),
        nothingFound: t('policies.picker.noGroup', 'No matching group'),
      }}
    />
  );
}

/** Picks one enrolled device by a server-side search (device name or owner). */
export function DeviceSelect({ value, ...props }: SelectProps) {
  const { t } = useTranslation();
  const picked = useDeviceById(useWorkingTenant(), value);
  return (
    <SearchSelect
      {...props}
      value={value}
      useOptions={useDeviceOptions}
      knownLabels={value && picked.data ? new Map([[value, deviceLabel(picked.data)]]) : undefined}
      texts={deviceTexts(t)}
    />
  );
}

/** Picks enrolled devices by a server-side search (device name or owner). */
export function DeviceMultiSelect(props: MultiSelectProps) {
  const { t } = useTranslation();
  return <SearchMultiSelect {...props} useOptions={useDeviceOptions} texts={deviceTexts(t)} />;
}
