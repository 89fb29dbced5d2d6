import { type InternalDevice, internalDeviceEndpoints, type Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { internalDeviceQueryOptions } from '../api/get-internal-device';
import { BERLIN_ID, NAS, POS, PRINTER } from '../testing/internal-device-fixtures';
import { Component as InternalDeviceDetail } from './internal-device-detail';

/** The fake API of one host's page: it is there until forgotten. */
function fakeDetailApi(start: InternalDevice) {
  let device: InternalDevice | null = start;
  const api = fakeApi()
    .on(internalDeviceEndpoints.getInternalDevice, ({ params }) =>
      device && params.id === device.id ? device : apiError('not_found'),
    )
    .on(internalDeviceEndpoints.forgetInternalDevice, ({ params }) => {
      if (!device || params.id !== device.id) return apiError('not_found');
      device = null;
      return { ok: true as const };
    })
    .on(internalDeviceEndpoints.listInternalDevices, () => keysetPage([]));
  return {
    api,
    forgets: () => api.calls(internalDeviceEndpoints.forgetInternalDevice).map((c) => c.params.id),
  };
}

function renderDetail(id: string, session: Session = makeSession()) {
  return renderRoutes(
    [
      { path: '/devices/internal-devices/:id', element: <InternalDeviceDetail /> },
      { path: '/devices/internal-devices', element: <h1>internal devices list</h1> },
      { path: '/devices/:id', element: <h1>device page</h1> },
    ],
    { route: `/devices/internal-devices/${id}`, session },
  );
}

/** The value shown for a term of the details. */
const shownFor = (term: string) =>
  screen.getByText(term, { selector: 'dt' }).nextElementSibling as HTMLElement;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('internal device page', { timeout: 20_000 }, () => {
  it('shows a host: names, addresses, vendor, its gateway (a link to its device page) and when it was seen', async () => {
    const { api } = fakeDetailApi(NAS);
    renderDetail(NAS.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'hq-nas' })).toBeInTheDocument();
    expect(screen.getByText('Behind HQ Berlin')).toBeInTheDocument();
    expect(shownFor('Host name')).toHaveTextContent('hq-nas');
    expect(shownFor('IP address')).toHaveTextContent('10.10.1.5');
    expect(shownFor('MAC address')).toHaveTextContent('00:11:32:9e:41:d2');
    expect(shownFor('Vendor')).toHaveTextContent('Synology Incorporated');
    expect(within(shownFor('Gateway')).getByRole('link', { name: 'HQ Berlin' })).toHaveAttribute(
      'href',
      `/devices/${BERLIN_ID}`,
    );
    expect(screen.getByRole('link', { name: 'Open gateway' })).toHaveAttribute(
      'href',
      `/devices/${BERLIN_ID}`,
    );
    expect(shownFor('Interface')).toHaveTextContent('eth1');
    expect(shownFor('Seen in')).toHaveTextContent('DHCP lease');
    expect(shownFor('Status')).toHaveTextContent('Active');
    expect(shownFor('First seen')).toHaveTextContent('3 days ago');
    expect(shownFor('Last seen')).toHaveTextContent('2 minutes ago');
    expect(screen.getByRole('link', { name: 'Back to internal devices' })).toHaveAttribute(
      'href',
      '/devices/internal-devices',
    );
    expect(api.unhandled).toEqual([]);
  });

  it('names a host without a host name by its MAC address, and says what it does not know', async () => {
    fakeDetailApi(POS);
    renderDetail(POS.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'da:a1:19:5f:22:80' })).toBeInTheDocument();
    expect(shownFor('Host name')).toHaveTextContent('None reported');
    expect(shownFor('Vendor')).toHaveTextContent('Unknown (a private or unregistered address)');
    expect(shownFor('Seen in')).toHaveTextContent('ARP table');
    expect(shownFor('Interface')).toHaveTextContent('—');
  });

  it('shows an inactive host as inactive', async () => {
    fakeDetailApi(PRINTER);
    renderDetail(PRINTER.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'hq-printer-2og' })).toBeInTheDocument();
    expect(shownFor('Status')).toHaveTextContent('Inactive');
  });

  it('forgets a host only after a confirmation, then goes back to the list', async () => {
    const { forgets } = fakeDetailApi(NAS);
    const { user, router } = renderDetail(NAS.id);
    await user.click(await screen.findByRole('button', { name: 'Forget' }));
    let dialog = await screen.findByRole('dialog', { name: 'Forget “hq-nas”?' });
    expect(dialog).toHaveTextContent('If HQ Berlin sees it again, it is listed again as a new device.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(forgets()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Forget' }));
    dialog = await screen.findByRole('dialog', { name: 'Forget “hq-nas”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Forget device' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/devices/internal-devices'));
    expect(forgets()).toEqual([NAS.id]);
    expect(await screen.findByText('“hq-nas” forgotten.')).toBeInTheDocument();
  });

  it('offers no "forget" to a role without gateways:delete', async () => {
    fakeDetailApi(NAS);
    renderDetail(NAS.id, makeSession({ role: 'auditor' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'hq-nas' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Forget' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open gateway' })).toBeInTheDocument();
  });

  it('says "not found" with a way back, for a malformed id and an unknown one', async () => {
    const { api } = fakeDetailApi(NAS);
    const first = renderDetail('not-a-uuid');
    expect(screen.getByRole('heading', { name: 'Internal device not found' })).toBeInTheDocument();
    first.unmount();
    expect(api.calls(internalDeviceEndpoints.getInternalDevice)).toHaveLength(0);

    renderDetail(PRINTER.id);
    expect(await screen.findByRole('heading', { name: 'Internal device not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to internal devices' })).toBeInTheDocument();
  });

  it('refreshes every 15 seconds while the tab is visible, and stops for a missing host', () => {
    const options = internalDeviceQueryOptions('acme', NAS.id);
    expect(options.refetchIntervalInBackground).toBe(false);
    expect(typeof options.refetchInterval).toBe('function');
  });
});
