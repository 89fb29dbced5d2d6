import {
  CONFIG_FLAGS,
  type DeviceBulkInput,
  type DeviceListItem,
  deviceEndpoints,
  enrolmentEndpoints,
  policyEndpoints,
  type Session,
  userEndpoints,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeAnswer, fakeApi, fileResponse, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { devicesQueryOptions } from '../api/get-devices';
import { ANN_ID, ANN_USER, BERLIN_SITE, LAPTOP, PHONE } from '../testing/device-fixtures';
import { Component as DevicesList } from './devices-list';

const ENGINEERING = '44444444-4444-4444-8444-444444444444';
const CONTRACTORS = '55555555-5555-4555-8555-555555555555';
const KIOSKS = '66666666-6666-4666-8666-666666666666';

type ListAnswer = FakeAnswer<typeof deviceEndpoints.listDevices>;

/** The fake API of the list: `list` answers the pages, the rest answers as the server would. */
function fakeDevicesApi(
  list: (query: URLSearchParams) => ListAnswer = () => keysetPage([LAPTOP, PHONE, BERLIN_SITE]),
) {
  const api = fakeApi()
    .on(deviceEndpoints.listDevices, ({ url }) => list(url.searchParams))
    .on(userEndpoints.listGroupOptions, () => [
      { id: ENGINEERING, name: 'Engineering' },
      { id: CONTRACTORS, name: 'Contractors' },
    ])
    .on(enrolmentEndpoints.listUserDevices, ({ query }) => {
      const items = [ANN_USER].filter(
        (user) =>
          (!query.userId || user.id === query.userId) && (!query.q || user.fullname.includes(query.q)),
      );
      return { items, total: items.length };
    })
    .on(deviceEndpoints.bulkDevices, ({ body }) => ({
      // Only the endpoints among the ids count; a pending one can be approved, an active one cannot.
      affected: body.ids.filter(
        (id) => id !== BERLIN_SITE.id && (body.action !== 'approve' || id === PHONE.id),
      ).length,
    }))
    .on(deviceEndpoints.getDeviceSettings, () => ({ requireApproval: false, keyExpiryDays: 90 as const }))
    .on(deviceEndpoints.updateDeviceSettings, ({ body }) => body)
    .on(policyEndpoints.listPolicyGroups, () => [
      {
        id: KIOSKS,
        name: 'Kiosks',
        description: '',
        policies: [],
        groups: [],
        users: [],
        devices: [],
        userCount: 0,
        updatedAt: '2026-03-01T10:00:00.000Z',
      },
    ]);
  return {
    api,
    lists: () =>
      api.calls(deviceEndpoints.listDevices).map((call) => Object.fromEntries(call.url.searchParams)),
    bulks: () => api.calls(deviceEndpoints.bulkDevices).map((call) => call.sentBody as DeviceBulkInput),
  };
}

// A tenant with policy groups (its `policyGroups` configuration flag, off by default): devices move into them.
function renderList(
  session: Session = makeSession({ configurations: { ...CONFIG_FLAGS, policyGroups: true } }),
  route = '/devices/list',
) {
  return renderRoutes(
    [
      { path: '/devices/list', element: <DevicesList /> },
      { path: '/devices/add', element: <h1>Add a device</h1> },
      { path: '/devices/:id', element: <h1>device page</h1> },
    ],
    { route, session },
  );
}

/** Picks `option` of the Mantine select labelled `label` (its dropdown counts as hidden in happy-dom). */
async function choose(user: ReturnType<typeof renderList>['user'], label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

/** The row of a device, found by its name link. */
async function rowOf(name: string): Promise<HTMLElement> {
  return (await screen.findByRole('link', { name })).closest('tr') as HTMLElement;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('device list', { timeout: 20_000 }, () => {
  it('lists endpoints and site gateways with owner, OS, status, state, versions, posture, address and key', async () => {
    const { api, lists } = fakeDevicesApi();
    renderList();

    const laptop = await rowOf('Ann’s laptop');
    expect(screen.getByRole('link', { name: 'Ann’s laptop' })).toHaveAttribute(
      'href',
      `/devices/${LAPTOP.id}`,
    );
    expect(within(laptop).getByRole('link', { name: 'ann@acme.example' })).toHaveAttribute(
      'href',
      `/users/${ANN_ID}`,
    );
    expect(within(laptop).getByText('Windows')).toBeInTheDocument();
    expect(within(laptop).getByText('Online')).toBeInTheDocument();
    expect(laptop).toHaveTextContent('last seen 2 minutes ago');
    expect(within(laptop).getByText('Active')).toBeInTheDocument();
    expect(within(laptop).getByText('2.3.1')).toBeInTheDocument();
    expect(within(laptop).getByText('Compliant')).toBeInTheDocument();
    expect(within(laptop).getByText('p-42')).toBeInTheDocument();
    expect(within(laptop).getByText('100.64.0.7')).toBeInTheDocument();
    expect(within(laptop).getByText('in 20 days')).toBeInTheDocument();

    const phone = await rowOf('Ann’s phone');
    expect(within(phone).getByText('Never seen')).toBeInTheDocument();
    expect(within(phone).getByText('Waiting for approval')).toBeInTheDocument();
    expect(within(phone).getByText('Unknown')).toBeInTheDocument();

    const site = await rowOf('Berlin office');
    expect(within(site).getByText('Site gateway')).toBeInTheDocument();
    expect(within(site).getByText('Cloud gateway')).toBeInTheDocument();
    expect(within(site).getByText('Offline')).toBeInTheDocument();
    expect(site).toHaveTextContent('last seen 3 hours ago');

    expect(screen.getByText('3 devices')).toBeInTheDocument();
    expect(screen.getByText('Status refreshes every 10 seconds while this tab is open.')).toBeInTheDocument();
    expect(lists()[0]).toEqual({ limit: '25', offset: '0', sort: 'name', order: 'asc' });
    expect(api.unhandled).toEqual([]);
  });

  it('sends kind, OS, status, state, group and search to the server and keeps them in the address', async () => {
    const { lists } = fakeDevicesApi((query) =>
      keysetPage(query.get('kind') === 'site' ? [BERLIN_SITE] : [LAPTOP, PHONE, BERLIN_SITE]),
    );
    const { user, router } = renderList();
    await rowOf('Ann’s laptop');

    await user.click(screen.getByRole('radio', { name: 'Site gateways' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Ann’s laptop' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Berlin office' })).toBeInTheDocument();
    expect(lists().at(-1)).toMatchObject({ kind: 'site', offset: '0' });

    await choose(user, 'OS type', 'Cloud gateway');
    await choose(user, 'Status', 'Offline');
    await choose(user, 'State', 'Active');
    await choose(user, 'User group', 'Engineering');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'berlin');
    await waitFor(() =>
      expect(lists().at(-1)).toEqual({
        limit: '25',
        offset: '0',
        sort: 'name',
        order: 'asc',
        q: 'berlin',
        kind: 'site',
        os: 'cgw',
        status: 'offline',
        state: 'active',
        groupId: ENGINEERING,
      }),
    );
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      q: 'berlin',
      kind: 'site',
      os: 'cgw',
      status: 'offline',
      state: 'active',
      groupId: ENGINEERING,
    });
  });

  it('lists one user’s devices from the address, naming the user in the owner filter, and sorts on the server', async () => {
    const { lists } = fakeDevicesApi(() => keysetPage([LAPTOP]));
    const { user, router } = renderList(makeSession(), `/devices/list?userId=${ANN_ID}`);
    await rowOf('Ann’s laptop');
    expect(lists()[0]).toMatchObject({ userId: ANN_ID });
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Owner' })).toHaveValue('Ann Archer (ann@acme.example)'),
    );

    await user.click(screen.getByRole('button', { name: /^Status/ }));
    await waitFor(() =>
      expect(lists().at(-1)).toMatchObject({ sort: 'lastSeenAt', order: 'asc', userId: ANN_ID }),
    );
    expect(router.state.location.search).toBe(`?sort=lastSeenAt&userId=${ANN_ID}`);
  });

  it('narrows the list to one owner picked by a search of the end users', async () => {
    const { lists } = fakeDevicesApi();
    const { user, router } = renderList();
    await rowOf('Ann’s laptop');
    await user.type(screen.getByRole('combobox', { name: 'Owner' }), 'Ann');
    await user.click(
      await screen.findByRole('option', { name: 'Ann Archer (ann@acme.example)', hidden: true }),
    );
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ userId: ANN_ID, offset: '0' }));
    expect(router.state.location.search).toBe(`?userId=${ANN_ID}`);
    expect(screen.getByRole('combobox', { name: 'Owner' })).toHaveValue('Ann Archer (ann@acme.example)');
  });

  it('approves the selected devices in one call and says how many changed', async () => {
    const { bulks } = fakeDevicesApi();
    const { user } = renderList();
    await rowOf('Ann’s laptop');

    await user.click(screen.getByRole('checkbox', { name: 'Select Ann’s phone' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Ann’s laptop' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve' }));

    await waitFor(() => expect(bulks()).toHaveLength(1));
    expect(bulks()[0]).toEqual({ action: 'approve', ids: [PHONE.id, LAPTOP.id] });
    expect(
      await screen.findByText(
        '1 device approved. 1 was left as it was: a site gateway, or a device the action does not apply to.',
      ),
    ).toBeInTheDocument();
    // The selection is done with.
    await waitFor(() => expect(screen.queryByText('2 selected')).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: 'Select Ann’s phone' })).not.toBeChecked();
  });

  it('deletes only after a confirmation, and moves devices into a chosen policy group', async () => {
    const { bulks } = fakeDevicesApi();
    const { user } = renderList();
    await rowOf('Ann’s laptop');

    await user.click(screen.getByRole('checkbox', { name: 'Select Ann’s laptop' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete 1 device?' });
    expect(within(confirm).getByText(/cannot be undone/)).toBeInTheDocument();
    expect(bulks()).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Delete devices' }));
    await waitFor(() => expect(bulks()).toEqual([{ action: 'delete', ids: [LAPTOP.id] }]));
    expect(await screen.findByText('1 device deleted.')).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select Ann’s phone' }));
    await user.click(screen.getByRole('button', { name: 'Move to policy group' }));
    const move = await screen.findByRole('dialog', { name: 'Move to a policy group' });
    await user.click(within(move).getByRole('button', { name: 'Move devices' }));
    expect(within(move).getByText('This field is required.')).toBeInTheDocument();
    await choose(user, 'Policy group', 'Kiosks');
    await user.click(within(move).getByRole('button', { name: 'Move devices' }));
    await waitFor(() =>
      expect(bulks().at(-1)).toEqual({ action: 'move', ids: [PHONE.id], policyGroupId: KIOSKS }),
    );
    expect(await screen.findByText('1 device moved to the policy group.')).toBeInTheDocument();
  });

  it('downloads the CSV of the current filters', async () => {
    const { api } = fakeDevicesApi();
    api.on(deviceEndpoints.exportDevices, () => fileResponse('name,kind\n', 'devices-acme.csv'));
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:devices');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const { user } = renderList(makeSession(), '/devices/list?state=pending&sort=enrolledAt&order=desc');
    await rowOf('Ann’s laptop');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(clicked).toHaveLength(1));
    const [call] = api.calls(deviceEndpoints.exportDevices);
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      sort: 'enrolledAt',
      order: 'desc',
      state: 'pending',
    });
    expect(clicked[0].download).toBe('devices-acme.csv');
  });

  it('edits the device rules: approval of new devices and a key lifetime of never', async () => {
    const { api } = fakeDevicesApi();
    const { user } = renderList();
    await rowOf('Ann’s laptop');
    await user.click(screen.getByRole('button', { name: 'Device rules' }));
    const dialog = await screen.findByRole('dialog', { name: 'Device rules' });
    const approval = await within(dialog).findByRole('switch', { name: /^Require approval of new devices/ });
    expect(approval).not.toBeChecked();
    expect(within(dialog).getByRole('combobox', { name: 'Key lifetime' })).toHaveValue('90 days');

    await user.click(approval);
    await choose(user, 'Key lifetime', 'Never');
    await user.click(within(dialog).getByRole('button', { name: 'Save rules' }));
    await waitFor(() =>
      expect(api.calls(deviceEndpoints.updateDeviceSettings).map((call) => call.sentBody)).toEqual([
        { requireApproval: true, keyExpiryDays: null },
      ]),
    );
    expect(await screen.findByText('Device rules saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers no selection, bulk actions or rules to a role that can only look', async () => {
    const { api } = fakeDevicesApi(() => keysetPage([LAPTOP] as DeviceListItem[]));
    renderList(makeSession({ role: 'auditor' }));
    await rowOf('Ann’s laptop');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Device rules' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add device' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('refreshes every 10 seconds while the tab is visible, not in a background tab', () => {
    const options = devicesQueryOptions('acme', {});
    expect(options.refetchInterval).toBe(10_000);
    expect(options.refetchIntervalInBackground).toBe(false);
  });
});

describe('configurations handed out for the WireGuard apps', () => {
  it('marks a device whose downloaded configuration is outdated, and no other', async () => {
    const outdated = { ...LAPTOP, configOutdated: true };
    fakeDevicesApi(() => keysetPage([outdated, PHONE, BERLIN_SITE]));
    renderList();
    const row = await rowOf(LAPTOP.name);
    expect(within(row).getByText('Configuration outdated')).toBeInTheDocument();
    expect(within(await rowOf(PHONE.name)).queryByText('Configuration outdated')).not.toBeInTheDocument();
  });
});
