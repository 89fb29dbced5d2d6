import { enrolmentEndpoints, type UserDevices } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeAnswer, fakeApi, fileResponse } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as UsersDevices } from './users-devices';

const CARA: UserDevices = {
  id: '33333333-3333-4333-8333-333333333333',
  username: 'cara@acme.example',
  fullname: 'Cara Cole',
  connstatus: 'never',
  state: 'not-invited',
  link: null,
  devices: [],
};
const CSV =
  'username,fullname,state,device,os,connstatus,enrolledVia,enrolledAt,lastSeenAt\ncara@acme.example,Cara Cole,not-invited,,,,,,\n';

/** The fake API of the users and devices list: Cara, and `exportAnswer` answering the export. */
function fakeDevicesApi(exportAnswer: () => FakeAnswer<typeof enrolmentEndpoints.exportUserDevices>) {
  return fakeApi()
    .on(enrolmentEndpoints.listUserDevices, () => ({ items: [CARA], total: 1 }))
    .on(enrolmentEndpoints.exportUserDevices, exportAnswer);
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('users and devices: CSV export', { timeout: 20_000 }, () => {
  it('downloads the CSV of the current search and filter', async () => {
    const api = fakeDevicesApi(() => fileResponse(CSV, 'users-devices-acme.csv', 'text/csv'));
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:devices');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });

    const { user } = renderRoutes([{ path: '/users/users-devices', element: <UsersDevices /> }], {
      route: '/users/users-devices?q=cara&filter=without-devices',
      session: makeSession({ role: 'helpdesk' }),
    });
    await screen.findByText('cara@acme.example');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(clicked).toHaveLength(1));
    const [call] = api.calls(enrolmentEndpoints.exportUserDevices);
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ q: 'cara', filter: 'without-devices' });
    expect(await createObjectURL.mock.calls[0][0].text()).toBe(CSV);
    expect(clicked[0].download).toBe('users-devices-acme.csv');
    expect(api.unhandled).toEqual([]);
  });

  it('says why when the export is refused, and saves nothing', async () => {
    const api = fakeDevicesApi(() => apiError('forbidden', { message: 'Forbidden.' }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const { user } = renderRoutes([{ path: '/users/users-devices', element: <UsersDevices /> }], {
      route: '/users/users-devices',
      session: makeSession(),
    });
    await screen.findByText('cara@acme.example');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(clicked).toHaveLength(0);
    expect(api.calls(enrolmentEndpoints.exportUserDevices)).toHaveLength(1);
  });
});
