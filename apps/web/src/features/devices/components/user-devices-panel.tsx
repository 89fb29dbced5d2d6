import { Button, Group as Row, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import { type Device, USER_DEVICES_FILTERS, type UserDevices } from '@palisade/contracts';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useDeleteDevices } from '../api/delete-devices';
import { useExportUserDevices } from '../api/export-user-devices';
import { useUserDevices } from '../api/get-user-devices';
import { useRevokeUserLink } from '../api/revoke-user-link';
import {
  parseListState,
  toListQuery,
  toSearchParams,
  type UserDevicesFilter,
  type UserDevicesListState,
} from '../utils/list-params';
import { SendLinkModal } from './send-link-modal';
import { UserDevicesTable } from './user-devices-table';

/** How long the search waits after the last keystroke before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/** Props of {@link UserDevicesPanel}. */
export interface UserDevicesPanelProps {
  /** `agentless` lists browser devices and links only, and sends agentless links. */
  method: 'any' | 'agentless';
  /** The page title (the screen's h1). */
  title: string;
  /** Shown between the header and the list, e.g. an explanation. */
  children?: ReactNode;
}

/**
 * End users with their devices and enrolment state: search and filter kept in the address, server paging,
 * and the link and device actions the administrator's rights allow.
 */
export function UserDevicesPanel({ method, title, children }: UserDevicesPanelProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('devices:create');
  const canDelete = useCan('devices:delete');
  const kind = method === 'agentless' ? 'agentless' : 'link';
  const filterLabelId = useId();
  const isPhone = useMediaQuery('(max-width: 48em)') ?? false;

  const [searchParams, setSearchParams] = useSearchParams();
  const state = parseListState(searchParams);
  const query = toListQuery(state, method);
  const setState = (patch: Partial<UserDevicesListState>) =>
    setSearchParams(toSearchParams({ ...state, ...patch }));

  // The box shows what is typed at once; the address (and so the query) follows 300 ms after the last key.
  const [searchText, setSearchText] = useState(state.q);
  // The search this box last put in the address: its arrival must not overwrite what was typed since.
  const appliedSearch = useRef(state.q);
  const applySearch = useDebouncedCallback((q: string) => {
    appliedSearch.current = q;
    setSearchParams((current) => toSearchParams({ ...parseListState(current), q, page: 1 }), {
      replace: true,
    });
  }, SEARCH_DEBOUNCE_MS);
  // Back, forward and links change the address under the box; the box follows them.
  useEffect(() => {
    if (state.q === appliedSearch.current) return;
    appliedSearch.current = state.q;
    setSearchText(state.q);
  }, [state.q]);

  const list = useUserDevices(tenant, query);
  const exportMutation = useExportUserDevices(tenant);

  const [linkUser, setLinkUser] = useState<UserDevices | null>(null);
  const [revokeUser, setRevokeUser] = useState<UserDevices | null>(null);
  const [removeDevice, setRemoveDevice] = useState<Device | null>(null);

  const revoke = useRevokeUserLink(tenant, {
    onSuccess: () => {
      setRevokeUser(null);
      showSuccess(t('devices.revokeLink.done', 'Link revoked.'));
    },
  });
  const remove = useDeleteDevices(tenant, {
    onSuccess: () => {
      setRemoveDevice(null);
      showSuccess(t('devices.removeDevice.done', 'Device removed.'));
    },
  });

  const filterLabels: Record<UserDevicesFilter, string> = {
    all: t('devices.filter.all', 'All'),
    'with-devices': t('devices.filter.withDevices', 'With devices'),
    'without-devices': t('devices.filter.withoutDevices', 'Without devices'),
    pending: t('devices.filter.pending', 'Pending link'),
  };
  const isNarrowed = state.q.trim() !== '' || state.filter !== 'all';

  const renderBody = () => {
    if (list.isPending)
      return <LoadingState label={t('devices.list.loading', 'Loading users and devices…')} />;
    if (list.isError && !list.data) {
      return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
    }
    const page = list.data;
    if (page.total === 0) {
      return (
        <EmptyState
          message={
            isNarrowed
              ? t('devices.list.noMatch', 'No users match.')
              : t(
                  'devices.list.empty',
                  'There are no end users yet. Add users first, then enrol their devices.',
                )
          }
        />
      );
    }
    return (
      <>
        {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
        <UserDevicesTable
          rows={page.items}
          total={page.total}
          page={state.page}
          pageSize={state.pageSize}
          kind={kind}
          isFetching={list.isFetching}
          {...(canCreate ? { onSendLink: setLinkUser } : {})}
          {...(canDelete
            ? { onRevokeLink: setRevokeUser, onRemoveDevice: (device: Device) => setRemoveDevice(device) }
            : {})}
          onPageChange={(next) => setState({ page: next })}
          onPageSizeChange={(size) =>
            setState({ pageSize: size as UserDevicesListState['pageSize'], page: 1 })
          }
        />
      </>
    );
  };

  return (
    <>
      <PageHeader
        title={title}
        actions={
          <Button
            variant="default"
            loading={exportMutation.isPending}
            onClick={() =>
              exportMutation.mutate({
                q: state.q.trim() || undefined,
                ...(state.filter !== 'all' ? { filter: state.filter } : {}),
                ...(method !== 'any' ? { method } : {}),
              })
            }
          >
            {t('devices.list.export', 'Export CSV')}
          </Button>
        }
        description={
          list.data === undefined
            ? undefined
            : t('devices.list.total', {
                count: list.data.total,
                defaultValue_one: '{{count}} user',
                defaultValue_other: '{{count}} users',
              })
        }
      />
      <Stack gap="md">
        {children}
        <Row justify="space-between" align="flex-end" gap="md">
          <TextInput
            type="search"
            label={t('devices.list.search', 'Search')}
            placeholder={t('devices.list.searchPlaceholder', 'Name, username or device')}
            value={searchText}
            onChange={(event) => {
              setSearchText(event.currentTarget.value);
              applySearch(event.currentTarget.value);
            }}
            w={{ base: '100%', sm: 320 }}
          />
          <Stack gap={4} w={{ base: '100%', sm: 'auto' }}>
            <Text size="sm" fw={500} id={filterLabelId}>
              {t('devices.filter.label', 'Show')}
            </Text>
            <SegmentedControl
              aria-labelledby={filterLabelId}
              // On a phone the choices stack, so the page never scrolls sideways.
              orientation={isPhone ? 'vertical' : 'horizontal'}
              fullWidth={isPhone}
              value={state.filter}
              onChange={(value) => setState({ filter: value as UserDevicesFilter, page: 1 })}
              data={USER_DEVICES_FILTERS.map((filter) => ({ value: filter, label: filterLabels[filter] }))}
            />
          </Stack>
        </Row>
        {renderBody()}
        <SendLinkModal user={linkUser} kind={kind} tenant={tenant} onClose={() => setLinkUser(null)} />
        <ConfirmModal
          isDestructive
          opened={revokeUser !== null}
          title={t('devices.revokeLink.title', 'Revoke link?')}
          message={t(
            'devices.revokeLink.message',
            'The pending link of {{name}} stops working at once. You can send a new one later.',
            { name: revokeUser ? revokeUser.fullname || revokeUser.username : '' },
          )}
          confirmLabel={t('devices.revokeLink.confirm', 'Revoke link')}
          isBusy={revoke.isPending}
          onClose={() => setRevokeUser(null)}
          onConfirm={() => revokeUser && revoke.mutate(revokeUser.id)}
        />
        <ConfirmModal
          isDestructive
          opened={removeDevice !== null}
          title={t('devices.removeDevice.title', 'Remove device?')}
          message={t(
            'devices.removeDevice.message',
            '“{{name}}” loses access and must enrol again to reconnect.',
            { name: removeDevice?.name ?? '' },
          )}
          confirmLabel={t('devices.removeDevice.confirm', 'Remove device')}
          isBusy={remove.isPending}
          onClose={() => setRemoveDevice(null)}
          onConfirm={() => removeDevice && remove.mutate([removeDevice.id])}
        />
      </Stack>
    </>
  );
}
