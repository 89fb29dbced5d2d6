import { telemetryEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import de from '../../../../public/locales/de/translation.json';
import { i18n } from '../../../lib/i18n';
import { pickDateTime } from '../../../testing/date-time';
import { apiError, keysetPage } from '../../../testing/fake-api';
import { initTestI18n, makeSession, renderRoutes } from '../../../testing/render';
import { type FakeTelemetryOptions, fakeTelemetryApi } from '../testing/fake-telemetry';
import {
  ANN,
  FRANKFURT,
  LAPTOP,
  LAPTOP_CONNECTED,
  LAPTOP_DISCONNECTED,
  SITE_TUNNEL_UP,
} from '../testing/fixtures';
import { Component as ConnectionStatus } from './connection-status';

const HOUR = 3_600_000;

/** The fake API of the screen, and the queries of the list requests it received. */
function fakeApi(options: FakeTelemetryOptions = {}) {
  const api = fakeTelemetryApi(options);
  const lists = () =>
    api
      .calls(telemetryEndpoints.listConnectionEvents)
      .map((call) => Object.fromEntries(call.url.searchParams));
  return { api, lists, lastList: () => lists().at(-1) ?? {} };
}

function renderScreen(route = '/events/connection-status', session = makeSession()) {
  return renderRoutes([{ path: '/events/connection-status', element: <ConnectionStatus /> }], {
    route,
    session,
  });
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

/** Whether an ISO time is `ms` before now, give or take a minute (the screen counts back from when it opened). */
const isAgo = (iso: string | undefined, ms: number) =>
  iso !== undefined && Math.abs(Date.parse(iso) - (Date.now() - ms)) < 60_000;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('connection status screen', { timeout: 30_000 }, () => {
  it('lists the last day’s connection events with user, device, gateway, duration and traffic', async () => {
    const { api, lists } = fakeApi();
    renderScreen();

    const table = await screen.findByRole('table', { name: 'Connection events' });
    const gone = await rowOf('Disconnected');
    expect(within(gone).getByText('5 minutes ago')).toHaveAttribute('datetime', LAPTOP_DISCONNECTED.at);
    expect(within(gone).getByText('ann@acme.example')).toBeInTheDocument();
    expect(within(gone).getByText('Ann’s laptop')).toBeInTheDocument();
    expect(within(gone).getByText('Frankfurt 1')).toBeInTheDocument();
    expect(within(gone).getByText('1d 2h 3m 4s')).toBeInTheDocument();
    expect(within(gone).getByText('1.5 MB')).toBeInTheDocument();
    expect(within(gone).getByText('512 bytes')).toBeInTheDocument();
    expect(within(gone).getByText('203.0.113.7:51820')).toBeInTheDocument();

    // A tunnel between gateways names no user or device.
    const tunnel = await rowOf('Tunnel up');
    expect(within(tunnel).getByText('Berlin office')).toBeInTheDocument();
    expect(within(tunnel).getAllByText('—').length).toBeGreaterThanOrEqual(2);

    // The connection of 26 hours ago is outside the default range.
    expect(screen.queryByRole('button', { name: /^Details of Connected/ })).not.toBeInTheDocument();
    expect(screen.getByText('2 connection events')).toBeInTheDocument();
    // The time heads the rows and turns their order; the others are plain headers.
    expect(within(table).getByRole('button', { name: /^Time/ })).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Action', 'User', 'Device', 'Gateway', 'Duration', 'Received', 'Sent', 'Endpoint']);
    const { from, ...rest } = lists()[0];
    expect(rest).toEqual({ limit: '25', offset: '0', order: 'desc' });
    expect(isAgo(from, 24 * HOUR)).toBe(true);
    // The filters ask for their choices only when opened.
    expect(api.unhandled).toEqual([]);
    expect(api.requests).toHaveLength(1);
  });

  it('sends the chosen user, device, gateway, action and time range to the server and keeps them in the address', async () => {
    const { lastList } = fakeApi();
    const { user, router } = renderScreen();
    await rowOf('Disconnected');

    await choose(user, 'User', 'Ann Archer (ann@acme.example)');
    await waitFor(() => expect(lastList().userId).toBe(ANN.id));
    await choose(user, 'Device', 'Ann’s laptop');
    await choose(user, 'Gateway', 'Frankfurt 1');
    await choose(user, 'Action', 'Disconnected');
    await waitFor(() => expect(lastList().action).toBe('disconnected'));
    const { from, ...rest } = lastList();
    expect(rest).toEqual({
      limit: '25',
      offset: '0',
      order: 'desc',
      userId: ANN.id,
      deviceId: LAPTOP.id,
      gatewayId: FRANKFURT.id,
      action: 'disconnected',
    });
    expect(isAgo(from, 24 * HOUR)).toBe(true);
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      userId: ANN.id,
      deviceId: LAPTOP.id,
      gatewayId: FRANKFURT.id,
      action: 'disconnected',
    });
    // The picked ones stay named.
    expect(screen.getByRole('combobox', { name: 'User' })).toHaveValue('Ann Archer (ann@acme.example)');
    expect(screen.getByRole('combobox', { name: 'Gateway' })).toHaveValue('Frankfurt 1');

    await choose(user, 'Time range', 'Last hour');
    await waitFor(() => expect(isAgo(lastList().from, HOUR)).toBe(true));
    expect(router.state.location.search).toContain('range=1h');

    // A custom range sends both ends; an end before the start is flagged and not sent.
    await choose(user, 'Time range', 'Custom range');
    await pickDateTime(user, screen.getByLabelText('To'), '2026-03-02T18:00');
    await pickDateTime(user, screen.getByLabelText('From'), '2026-03-01T09:30');
    await waitFor(() => expect(lastList().to).toBe(new Date('2026-03-02T18:00').toISOString()));
    expect(lastList().from).toBe(new Date('2026-03-01T09:30').toISOString());
    await pickDateTime(user, screen.getByLabelText('To'), '2026-02-01T00:00');
    expect(await screen.findByText('The end is before the start.')).toBeInTheDocument();
    await waitFor(() => expect(lastList().to).toBeUndefined());

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(lastList().userId).toBeUndefined());
    expect(isAgo(lastList().from, 24 * HOUR)).toBe(true);
  });

  it('names a user, device and gateway of a shared link from the rows', async () => {
    const { api } = fakeApi();
    renderScreen(
      `/events/connection-status?userId=${ANN.id}&deviceId=${LAPTOP.id}&gatewayId=${FRANKFURT.id}`,
    );
    await rowOf('Disconnected');
    expect(screen.getByRole('combobox', { name: 'User' })).toHaveValue('ann@acme.example');
    expect(screen.getByRole('combobox', { name: 'Device' })).toHaveValue('Ann’s laptop');
    expect(screen.getByRole('combobox', { name: 'Gateway' })).toHaveValue('Frankfurt 1');
    expect(api.unhandled).toEqual([]);
  });

  it('asks for the next page after the cursor of the one before', async () => {
    const { lists } = fakeApi({
      connectionList: (query) =>
        query.get('cursor') === 'after-41'
          ? { items: [SITE_TUNNEL_UP], total: null, totalIsEstimate: false, nextCursor: null }
          : { items: [LAPTOP_DISCONNECTED], total: 26, totalIsEstimate: false, nextCursor: 'after-41' },
    });
    const { user, router } = renderScreen();
    await rowOf('Disconnected');
    expect(screen.getByText('26 connection events')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await rowOf('Tunnel up');
    expect(screen.queryByRole('button', { name: /^Details of Disconnected/ })).not.toBeInTheDocument();
    const { from, ...page2 } = lists().at(-1)!;
    expect(page2).toEqual({
      limit: '25',
      offset: '25',
      order: 'desc',
      cursor: 'after-41',
      withTotal: 'false',
    });
    // The same range as the first page, so the cursor fits.
    expect(from).toBe(lists()[0].from);
    expect(router.state.location.search).toBe('?page=2');
  });

  it('opens a row’s details: every field, the duration in days, hours, minutes and seconds', async () => {
    fakeApi();
    const { user } = renderScreen();
    await user.click((await rowOf('Disconnected')).querySelector('button') as HTMLElement);

    const drawer = await screen.findByRole('dialog', { name: 'Connection event' });
    const field = (name: string) =>
      within(drawer).getByRole('rowheader', { name }).closest('tr') as HTMLElement;
    expect(field('Duration')).toHaveTextContent('1d 2h 3m 4s');
    expect(field('Received')).toHaveTextContent('1.5 MB');
    expect(field('Sent')).toHaveTextContent('512 bytes');
    expect(field('Action')).toHaveTextContent('Disconnected');
    expect(field('User')).toHaveTextContent(`ann@acme.example${ANN.id}`);
    expect(field('Device')).toHaveTextContent('Ann’s laptop');
    expect(field('Gateway')).toHaveTextContent('Frankfurt 1');
    expect(field('Endpoint')).toHaveTextContent('203.0.113.7:51820');
    expect(field('Peer key')).toHaveTextContent(LAPTOP_DISCONNECTED.peer!);
    expect(field('Event ID')).toHaveTextContent(LAPTOP_DISCONNECTED.id);
    const time = within(field('Time')).getByText(/2\d{3}/);
    expect(time).toHaveAttribute('datetime', LAPTOP_DISCONNECTED.at);
    expect(time.textContent).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'medium' }).format(
        new Date(LAPTOP_DISCONNECTED.at),
      ),
    );

    await user.click(within(drawer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('downloads the CSV of the filters shown', async () => {
    const { api } = fakeApi();
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:connections');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const { user } = renderScreen(
      `/events/connection-status?range=7d&action=disconnected&userId=${ANN.id}&order=asc`,
    );
    await rowOf('Disconnected');

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const [call] = api.calls(telemetryEndpoints.exportConnectionEvents);
    expect(call.headers.get('X-Auth-Token')).toBe('test-session');
    const { from, ...rest } = Object.fromEntries(call.url.searchParams);
    expect(rest).toEqual({ order: 'asc', action: 'disconnected', userId: ANN.id });
    expect(isAgo(from, 7 * 24 * HOUR)).toBe(true);
    expect(clicked[0].download).toBe('connection-events-acme.csv');
  });

  it('says when nothing happened in the range, offers a month, and tells no match from nothing', async () => {
    const { lastList } = fakeApi({ connections: [] });
    const { user, router, unmount } = renderScreen();
    expect(await screen.findByText('No connection events in this time range.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Show the last 30 days' }));
    await waitFor(() => expect(router.state.location.search).toBe('?range=30d'));
    await waitFor(() => expect(isAgo(lastList().from, 30 * 24 * HOUR)).toBe(true));
    unmount();

    renderScreen('/events/connection-status?action=tunnel_down');
    expect(await screen.findByText('No connection events match the filters.')).toBeInTheDocument();
  });

  it('shows a failed load with a retry', async () => {
    let calls = 0;
    fakeApi({
      connectionList: () => {
        calls += 1;
        return calls === 1 ? apiError('forbidden') : keysetPage([LAPTOP_CONNECTED]);
      },
    });
    const { user } = renderScreen();
    expect(await screen.findByText('Your role does not allow this.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await rowOf('Connected')).toBeInTheDocument();
  });

  it('speaks German: actions, columns and durations', async () => {
    fakeApi();
    initTestI18n();
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await i18n.changeLanguage('de');
    const { user } = renderScreen();
    const button = await screen.findByRole('button', { name: /^Details zu Getrennt am / });
    const row = button.closest('tr') as HTMLElement;
    expect(within(row).getByText('1 Tg. 2 Std. 3 Min. 4 Sek.')).toBeInTheDocument();
    expect(within(row).getByText('1,5 MB')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Verbindungsereignisse' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Verbindungsstatus' })).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Aktion' }));
    expect(await screen.findByRole('option', { name: 'Tunnel aufgebaut', hidden: true })).toBeInTheDocument();
  });
});
