import {
  CONFIG_FLAGS,
  type DeviceBulkInput,
  type DeviceDetail,
  deviceEndpoints,
  type Session,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { deviceQueryOptions } from '../api/get-device';
import { ago, BERLIN_SITE, LAPTOP, makeDeviceDetail, PHONE } from '../testing/device-fixtures';
import { DeviceDetailScreen } from './device-detail';

const MINUTE = 60_000;
const FRANKFURT_ID = '11111111-2222-4333-8444-555555555555';
const PARIS_ID = '22222222-3333-4444-8555-666666666666';
const ENGINEERING_PG = '77777777-7777-4777-8777-777777777777';
const PUBLIC_KEY = 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=';

/** Ann's laptop as its page shows it: posture, tunnel with two gateways, history, policy groups and policies. */
const LAPTOP_DETAIL = makeDeviceDetail(LAPTOP, {
  postureChecks: { diskEncrypted: true, firewall: false },
  wireguard: {
    publicKey: PUBLIC_KEY,
    address: '100.64.0.7/32',
    peers: [
      {
        gatewayId: FRANKFURT_ID,
        name: 'Frankfurt 1',
        publicKey: 'HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=',
        endpoint: 'fra1.cybernodes.example:51820',
        allowedIps: ['100.100.1.0/24', '10.20.0.0/16'],
        lastHandshakeAt: ago(90_000),
      },
      {
        gatewayId: PARIS_ID,
        name: 'Paris 2',
        publicKey: 'TrMvSoP4jYQlY6RIzBgbssQqY3vxI2Pi+y71lOWWXX0=',
        endpoint: null,
        allowedIps: ['100.100.2.0/24'],
        lastHandshakeAt: null,
      },
    ],
  },
  sessions: [
    {
      startedAt: ago(3 * 60 * MINUTE),
      lastSeenAt: ago(2 * MINUTE),
      ip: '203.0.113.9',
      agentVersion: '2.3.1',
    },
    { startedAt: ago(26 * 60 * MINUTE), lastSeenAt: ago(25 * 60 * MINUTE), ip: null, agentVersion: '2.3.0' },
  ],
  policyGroups: [{ id: ENGINEERING_PG, name: 'Engineering laptops' }],
  policies: [
    {
      id: '88888888-8888-4888-8888-888888888888',
      name: 'Block gambling',
      type: 'other',
      enabled: true,
      via: [{ kind: 'everyone', policyGroup: null, group: null }],
    },
    {
      id: '99999999-9999-4999-8999-999999999999',
      name: 'Route to the lab',
      type: 'route',
      enabled: false,
      via: [
        { kind: 'device', policyGroup: 'Engineering laptops', group: null },
        { kind: 'user', policyGroup: 'Ann’s access', group: null },
        { kind: 'group', policyGroup: 'Staff', group: 'Engineering' },
      ],
    },
  ],
});

/** The fake API of one device page, answering the actions as the server would. */
function fakeDeviceApi(start: DeviceDetail) {
  let device = start;
  const api = fakeApi()
    .on(deviceEndpoints.getDeviceDetail, ({ params }) =>
      params.id === device.id ? device : apiError('not_found'),
    )
    .on(deviceEndpoints.updateDevice, ({ body }) => {
      device = { ...device, name: body.name };
      return device;
    })
    .on(deviceEndpoints.expireDeviceKey, () => {
      device = { ...device, state: 'expired', wireguard: null, keyExpiresAt: new Date().toISOString() };
      return device;
    })
    .on(deviceEndpoints.bulkDevices, ({ body }) => {
      if (body.action === 'approve' && device.state === 'pending') device = { ...device, state: 'active' };
      else if (body.action === 'disable') device = { ...device, state: 'disabled' };
      else if (body.action !== 'delete') return { affected: 0 };
      return { affected: 1 };
    });
  return {
    api,
    bulks: () => api.calls(deviceEndpoints.bulkDevices).map((call) => call.sentBody as DeviceBulkInput),
  };
}

// A tenant with policy groups (its `policyGroups` configuration flag, off by default).
function renderDevice(
  id: string,
  session: Session = makeSession({ configurations: { ...CONFIG_FLAGS, policyGroups: true } }),
) {
  return renderRoutes(
    [
      { path: '/devices/:id', element: <DeviceDetailScreen siteConfig={<p>Site configuration slot</p>} /> },
      { path: '/devices/list', element: <h1>All devices</h1> },
    ],
    { route: `/devices/${id}`, session },
  );
}

/** The value shown for a term of a description list. */
function shownFor(term: string): HTMLElement {
  const dt = screen.getAllByRole('term').find((element) => element.textContent === term);
  if (!dt?.nextElementSibling) throw new Error(`No term “${term}”`);
  return dt.nextElementSibling as HTMLElement;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('device page', { timeout: 20_000 }, () => {
  it('shows the details, posture checks, WireGuard peers, online history, policy groups and policies', async () => {
    const { api } = fakeDeviceApi(LAPTOP_DETAIL);
    renderDevice(LAPTOP.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann’s laptop' })).toBeInTheDocument();
    expect(shownFor('Status')).toHaveTextContent('Online');
    expect(shownFor('Status')).toHaveTextContent('last seen 2 minutes ago');
    expect(shownFor('State')).toHaveTextContent('Active');
    expect(shownFor('Owner')).toHaveTextContent('ann@acme.example');
    expect(shownFor('Enrolled with')).toHaveTextContent('Enrolment link');
    expect(shownFor('Agent version')).toHaveTextContent('2.3.1');
    expect(shownFor('Key expires')).toHaveTextContent('in 20 days');

    const posture = screen.getByRole('region', { name: 'Posture checks' });
    expect(within(posture).getByText('Disk encryption').previousElementSibling).toHaveTextContent('Passed');
    expect(within(posture).getByText('Firewall').previousElementSibling).toHaveTextContent('Failed');
    expect(within(posture).getByText('Screen lock').previousElementSibling).toHaveTextContent('Not reported');

    const wireguard = screen.getByRole('region', { name: 'WireGuard' });
    expect(within(wireguard).getByText(PUBLIC_KEY)).toBeInTheDocument();
    expect(within(wireguard).getByText('100.64.0.7/32')).toBeInTheDocument();
    const peers = within(wireguard).getByRole('table', { name: 'Gateways this device peers with' });
    const frankfurt = within(peers).getByRole('link', { name: 'Frankfurt 1' }).closest('tr') as HTMLElement;
    expect(within(frankfurt).getByRole('link', { name: 'Frankfurt 1' })).toHaveAttribute(
      'href',
      `/cybernodes/view?id=${FRANKFURT_ID}`,
    );
    expect(within(frankfurt).getByText('fra1.cybernodes.example:51820')).toBeInTheDocument();
    expect(within(frankfurt).getByText('100.100.1.0/24, 10.20.0.0/16')).toBeInTheDocument();
    expect(within(frankfurt).getByText('1 minute ago')).toBeInTheDocument();
    const paris = within(peers).getByRole('link', { name: 'Paris 2' }).closest('tr') as HTMLElement;
    expect(within(paris).getByText('Not reported yet')).toBeInTheDocument();
    expect(within(paris).getByText('No handshake yet')).toBeInTheDocument();

    const sessions = within(screen.getByRole('region', { name: 'Online history' })).getAllByRole('row');
    expect(sessions).toHaveLength(3);
    expect(sessions[1]).toHaveTextContent('3 hours ago2 minutes ago203.0.113.92.3.1');
    expect(sessions[2]).toHaveTextContent('1 day ago1 day ago—2.3.0');

    const groups = screen.getByRole('region', { name: 'Policy groups' });
    expect(within(groups).getByRole('link', { name: 'Engineering laptops' })).toHaveAttribute(
      'href',
      `/policy/policyGroups/${ENGINEERING_PG}`,
    );

    const policies = screen.getByRole('region', { name: 'Effective policies' });
    const gambling = within(policies)
      .getByRole('link', { name: 'Block gambling' })
      .closest('tr') as HTMLElement;
    expect(gambling).toHaveTextContent('User policy');
    expect(gambling).toHaveTextContent('Yes');
    expect(within(gambling).getByText('Everyone')).toBeInTheDocument();
    const lab = within(policies).getByRole('link', { name: 'Route to the lab' }).closest('tr') as HTMLElement;
    expect(within(lab).getByRole('link', { name: 'Route to the lab' })).toHaveAttribute(
      'href',
      '/policy/list?policy=99999999-9999-4999-8999-999999999999',
    );
    expect(lab).toHaveTextContent('Device policy');
    expect(lab).toHaveTextContent('No');
    expect(within(lab).getByText('Device via Engineering laptops')).toBeInTheDocument();
    expect(within(lab).getByText('User via Ann’s access')).toBeInTheDocument();
    expect(within(lab).getByText('Group Engineering via Staff')).toBeInTheDocument();

    expect(screen.queryByText('Site configuration slot')).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('renames the device, and shows the new name', async () => {
    const { api } = fakeDeviceApi(LAPTOP_DETAIL);
    const { user } = renderDevice(LAPTOP.id);
    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename “Ann’s laptop”' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('This field is required.')).toBeInTheDocument();
    expect(api.calls(deviceEndpoints.updateDevice)).toHaveLength(0);

    await user.type(name, 'ANN-T14');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls(deviceEndpoints.updateDevice).map((call) => call.sentBody)).toEqual([
        { name: 'ANN-T14' },
      ]),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'ANN-T14' })).toBeInTheDocument();
    expect(screen.getByText('Device renamed to “ANN-T14”.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('approves a device waiting for approval', async () => {
    const { bulks } = fakeDeviceApi(makeDeviceDetail(PHONE));
    const { user } = renderDevice(PHONE.id);
    expect(
      await screen.findByText('Waiting for approval', { selector: '.mantine-Alert-title *' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(bulks()).toEqual([{ action: 'approve', ids: [PHONE.id] }]));
    expect(await screen.findByText('Device “Ann’s phone” approved.')).toBeInTheDocument();
    await waitFor(() => expect(shownFor('State')).toHaveTextContent('Active'));
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('expires the key after a confirmation', async () => {
    const { api } = fakeDeviceApi(LAPTOP_DETAIL);
    const { user } = renderDevice(LAPTOP.id);
    await user.click(await screen.findByRole('button', { name: 'Expire key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Expire the key of “Ann’s laptop”?' });
    expect(api.calls(deviceEndpoints.expireDeviceKey)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Expire key' }));
    await waitFor(() => expect(api.calls(deviceEndpoints.expireDeviceKey)).toHaveLength(1));
    expect(await screen.findByText('The key of “Ann’s laptop” expired.')).toBeInTheDocument();
    expect(shownFor('State')).toHaveTextContent('Key expired');
    expect(
      within(screen.getByRole('region', { name: 'WireGuard' })).getByText(/^No tunnel/),
    ).toBeInTheDocument();
  });

  it('deletes only after a confirmation, then goes back to the list', async () => {
    const { bulks } = fakeDeviceApi(LAPTOP_DETAIL);
    const { user, router } = renderDevice(LAPTOP.id);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete “Ann’s laptop”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bulks()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete “Ann’s laptop”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete device' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/devices/list'));
    expect(bulks()).toEqual([{ action: 'delete', ids: [LAPTOP.id] }]);
    expect(await screen.findByText('Device “Ann’s laptop” deleted.')).toBeInTheDocument();
  });

  it('shows a site gateway with its details, a link to its gateway page and the site configuration', async () => {
    const { api } = fakeDeviceApi(makeDeviceDetail(BERLIN_SITE));
    renderDevice(BERLIN_SITE.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'Berlin office' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open gateway page' })).toHaveAttribute(
      'href',
      `/cybernodes/view?id=${BERLIN_SITE.id}`,
    );
    expect(screen.getByRole('link', { name: 'Go to the gateway page of “Berlin office”' })).toHaveAttribute(
      'href',
      `/cybernodes/view?id=${BERLIN_SITE.id}`,
    );
    expect(shownFor('Kind')).toHaveTextContent('Site gateway');
    expect(shownFor('OS type')).toHaveTextContent('Cloud gateway');
    expect(shownFor('Software version')).toHaveTextContent('1.4.2');
    expect(screen.getByText('Site configuration slot')).toBeInTheDocument();
    for (const region of ['Posture checks', 'WireGuard', 'Online history', 'Effective policies']) {
      expect(screen.queryByRole('region', { name: region })).not.toBeInTheDocument();
    }
    for (const name of ['Rename', 'Disable', 'Delete', 'Expire key']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(api.unhandled).toEqual([]);
  });

  it('hides every action from a role without devices:update', async () => {
    fakeDeviceApi(LAPTOP_DETAIL);
    renderDevice(LAPTOP.id, makeSession({ role: 'auditor' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann’s laptop' })).toBeInTheDocument();
    for (const name of ['Rename', 'Disable', 'Delete', 'Expire key']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'Back to devices' })).toBeInTheDocument();
  });

  it('says "not found" with a way back, for a malformed id and an unknown one', async () => {
    const { api } = fakeDeviceApi(LAPTOP_DETAIL);
    const first = renderDevice('not-a-uuid');
    expect(screen.getByRole('heading', { name: 'Device not found' })).toBeInTheDocument();
    first.unmount();
    expect(api.calls(deviceEndpoints.getDeviceDetail)).toHaveLength(0);

    const { user, router } = renderDevice('99999999-9999-4999-8999-999999999999');
    expect(await screen.findByRole('heading', { name: 'Device not found' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to devices' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/devices/list'));
  });

  it('refreshes every 10 seconds while the tab is visible, and stops for a device that is gone', () => {
    const options = deviceQueryOptions('acme', LAPTOP.id);
    const interval = options.refetchInterval as (query: { state: { error: unknown } }) => number | false;
    expect(options.refetchIntervalInBackground).toBe(false);
    expect(interval({ state: { error: null } })).toBe(10_000);
  });
});
