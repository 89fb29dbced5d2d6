import { telemetryEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSession, renderRoutes } from '../../../testing/render';
import { type FakeTelemetryOptions, fakeTelemetryApi } from '../testing/fake-telemetry';
import { BEN, FRANKFURT, LAPTOP, LAPTOP_UPGRADED, PHONE, PHONE_KEY_ROTATED } from '../testing/fixtures';
import { Component as DeviceEvents } from './device-events';

const DAY = 86_400_000;

/** The fake API of the screen, and the queries of the list requests it received. */
function fakeApi(options: FakeTelemetryOptions = {}) {
  const api = fakeTelemetryApi(options);
  const lists = () =>
    api.calls(telemetryEndpoints.listDeviceEvents).map((call) => Object.fromEntries(call.url.searchParams));
  return { api, lists, lastList: () => lists().at(-1) ?? {} };
}

function renderScreen(route = '/events/device-events', session = makeSession()) {
  return renderRoutes([{ path: '/events/device-events', element: <DeviceEvents /> }], { route, session });
}

/** Picks `option` of the Mantine select labelled `label` (its dropdown counts as hidden in happy-dom). */
async function choose(user: ReturnType<typeof renderScreen>['user'], label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

/** The row whose details button names `action`. */
async function rowOf(action: string): Promise<HTMLElement> {
  const button = await screen.findByRole('button', { name: new RegExp(`^Details of ${action} at `) });
  return button.closest('tr') as HTMLElement;
}

/** Whether an ISO time is `ms` before now, give or take a minute. */
const isAgo = (iso: string | undefined, ms: number) =>
  iso !== undefined && Math.abs(Date.parse(iso) - (Date.now() - ms)) < 60_000;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('device events screen', { timeout: 30_000 }, () => {
  it('lists device events with their device, user, gateway and what changed', async () => {
    const { api, lists } = fakeApi();
    renderScreen();

    expect(await screen.findByRole('table', { name: 'Device events' })).toBeInTheDocument();
    const upgraded = await rowOf('Agent upgraded');
    expect(within(upgraded).getByText('5 minutes ago')).toHaveAttribute('datetime', LAPTOP_UPGRADED.at);
    expect(within(upgraded).getByText('Ann’s laptop')).toBeInTheDocument();
    expect(within(upgraded).getByText('ann@acme.example')).toBeInTheDocument();
    expect(within(upgraded).getByText('Frankfurt 1')).toBeInTheDocument();
    expect(within(upgraded).getByText('agent 1.4.2 → 1.5.0')).toBeInTheDocument();
    const rotated = await rowOf('Key rotated');
    expect(within(rotated).getByText('Ben’s phone')).toBeInTheDocument();
    expect(within(rotated).getByText('2 hours ago')).toBeInTheDocument();
    expect(screen.getByText('2 device events')).toBeInTheDocument();

    const { from, ...rest } = lists()[0];
    expect(rest).toEqual({ limit: '25', offset: '0', order: 'desc' });
    expect(isAgo(from, DAY)).toBe(true);
    expect(api.unhandled).toEqual([]);
  });

  it('names the console as the source of the events it recorded itself', async () => {
    fakeApi({
      deviceEvents: [
        {
          ...PHONE_KEY_ROTATED,
          id: '00000000-0000-0000-0000-000000000000.91',
          source: 'console',
          gateway: null,
        },
      ],
    });
    const { user } = renderScreen();
    const rotated = await rowOf('Key rotated');
    expect(within(rotated).getByText('Console')).toBeInTheDocument();
    await user.click(within(rotated).getByRole('button', { name: /^Details of Key rotated/ }));
    expect(await screen.findByText('Console (recorded by Palisade itself)')).toBeInTheDocument();
  });

  it('sends the device, gateway, action and range to the server, and turns the order by time', async () => {
    const { lastList } = fakeApi();
    const { user, router } = renderScreen();
    await rowOf('Agent upgraded');

    await choose(user, 'Device', 'Ben’s phone');
    await waitFor(() => expect(lastList().deviceId).toBe(PHONE.id));
    expect(await rowOf('Key rotated')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Details of Agent upgraded/ })).not.toBeInTheDocument();

    // The gateway list is searched on the server as the name is typed.
    await user.type(screen.getByRole('combobox', { name: 'Gateway' }), 'frank');
    await user.click(await screen.findByRole('option', { name: 'Frankfurt 1', hidden: true }));
    await choose(user, 'Action', 'Key rotated');
    await choose(user, 'Time range', 'Last 7 days');
    await waitFor(() => expect(isAgo(lastList().from, 7 * DAY)).toBe(true));
    const { from: _from, ...rest } = lastList();
    expect(rest).toEqual({
      limit: '25',
      offset: '0',
      order: 'desc',
      deviceId: PHONE.id,
      gatewayId: FRANKFURT.id,
      action: 'key_rotated',
    });

    await user.click(screen.getByRole('button', { name: /^Time/ }));
    await waitFor(() => expect(lastList().order).toBe('asc'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      range: '7d',
      deviceId: PHONE.id,
      gatewayId: FRANKFURT.id,
      action: 'key_rotated',
      order: 'asc',
    });
  });

  it('asks for the next page after the cursor of the one before', async () => {
    const { lists } = fakeApi({
      deviceList: (query) =>
        query.get('cursor') === 'after-90'
          ? { items: [PHONE_KEY_ROTATED], total: null, totalIsEstimate: false, nextCursor: null }
          : { items: [LAPTOP_UPGRADED], total: 12_345, totalIsEstimate: true, nextCursor: 'after-90' },
    });
    const { user } = renderScreen();
    await rowOf('Agent upgraded');
    expect(screen.getByText('About 12,345 device events')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await rowOf('Key rotated');
    expect(lists().at(-1)).toMatchObject({ offset: '25', cursor: 'after-90', withTotal: 'false' });
  });

  it('opens a row’s details with everything the event says', async () => {
    fakeApi();
    const { user } = renderScreen();
    await user.click((await rowOf('Agent upgraded')).querySelector('button') as HTMLElement);
    const drawer = await screen.findByRole('dialog', { name: 'Device event' });
    const field = (name: string) =>
      within(drawer).getByRole('rowheader', { name }).closest('tr') as HTMLElement;
    expect(field('Action')).toHaveTextContent('Agent upgraded');
    expect(field('Detail')).toHaveTextContent('agent 1.4.2 → 1.5.0');
    expect(field('Device')).toHaveTextContent(`Ann’s laptop${LAPTOP.id}`);
    expect(field('Gateway')).toHaveTextContent('Frankfurt 1');
    expect(field('Event ID')).toHaveTextContent(LAPTOP_UPGRADED.id);
    expect(within(field('Time')).getByText(/\d{4}/)).toHaveAttribute('datetime', LAPTOP_UPGRADED.at);
  });

  it('downloads the CSV of the filters shown', async () => {
    const { api } = fakeApi();
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:devices'), revokeObjectURL: vi.fn() }),
    );
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const { user } = renderScreen(
      `/events/device-events?range=custom&from=2026-03-01T09:30&to=2099-12-31T18:00&deviceId=${LAPTOP.id}&action=upgraded`,
    );
    await rowOf('Agent upgraded');
    // The range is shown as it was chosen.
    expect(screen.getByRole('combobox', { name: 'Time range' })).toHaveValue('Custom range');

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const [call] = api.calls(telemetryEndpoints.exportDeviceEvents);
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      order: 'desc',
      from: new Date('2026-03-01T09:30').toISOString(),
      to: new Date('2099-12-31T18:00').toISOString(),
      deviceId: LAPTOP.id,
      action: 'upgraded',
    });
    expect(clicked[0].download).toBe('device-events-acme.csv');
  });

  it('shows the empty state, naming a linked user the rows do not name', async () => {
    const { api } = fakeApi({ deviceEvents: [] });
    const { unmount } = renderScreen();
    expect(await screen.findByText('No device events in this time range.')).toBeInTheDocument();
    unmount();

    renderScreen(`/events/device-events?userId=${BEN.id}`);
    expect(await screen.findByText('No device events match the filters.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'User' })).toHaveValue('Ben Baker (ben@acme.example)'),
    );
    expect(api.unhandled).toEqual([]);
  });

  it('offers only the filters whose lists the role may read', async () => {
    fakeApi();
    renderScreen(
      '/events/device-events',
      makeSession({ role: 'custom', permissions: ['events:view', 'devices:view'] }),
    );
    await rowOf('Agent upgraded');
    expect(screen.getByRole('combobox', { name: 'Device' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'User' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Gateway' })).not.toBeInTheDocument();
  });
});
