import { gatewayEndpoints, internalDeviceEndpoints, type Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeAnswer, fakeApi, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { makeSiteGateway } from '../../../testing/site-gateways';
import { internalDevicesQueryOptions } from '../api/get-internal-devices';
import { BERLIN_ID, COLOGNE_ID, NAS, POS, PRINTER } from '../testing/internal-device-fixtures';
import { Component as InternalDevicesList } from './internal-devices-list';

type ListAnswer = FakeAnswer<typeof internalDeviceEndpoints.listInternalDevices>;

/** The fake API of the list: `list` answers the pages; the gateway filter gets the two site gateways. */
function fakeListApi(list: (query: URLSearchParams) => ListAnswer = () => keysetPage([NAS, PRINTER, POS])) {
  const api = fakeApi()
    .on(internalDeviceEndpoints.listInternalDevices, ({ url }) => list(url.searchParams))
    .on(gatewayEndpoints.listGateways, () =>
      keysetPage([
        makeSiteGateway({ id: BERLIN_ID, name: 'HQ Berlin' }),
        makeSiteGateway({ id: COLOGNE_ID, name: 'Store Cologne', kind: 'cgwr' }),
      ]),
    );
  return {
    api,
    lists: () =>
      api
        .calls(internalDeviceEndpoints.listInternalDevices)
        .map((call) => Object.fromEntries(call.url.searchParams)),
    gatewayQueries: () =>
      api.calls(gatewayEndpoints.listGateways).map((call) => Object.fromEntries(call.url.searchParams)),
  };
}

function renderList(session: Session = makeSession(), route = '/devices/internal-devices') {
  return renderRoutes(
    [
      { path: '/devices/internal-devices', element: <InternalDevicesList /> },
      { path: '/devices/internal-devices/:id', element: <h1>internal device page</h1> },
      { path: '/devices/:id', element: <h1>device page</h1> },
    ],
    { route, session },
  );
}

/** The row of a host, found by its name link. */
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

describe('internal devices list', { timeout: 20_000 }, () => {
  it('lists hosts with name, addresses, vendor, gateway, source, activity and when they were seen', async () => {
    const { api, lists, gatewayQueries } = fakeListApi();
    renderList();

    const nas = await rowOf('hq-nas');
    expect(screen.getByRole('link', { name: 'hq-nas' })).toHaveAttribute(
      'href',
      `/devices/internal-devices/${NAS.id}`,
    );
    expect(within(nas).getByText('10.10.1.5')).toBeInTheDocument();
    expect(within(nas).getByText('00:11:32:9e:41:d2')).toBeInTheDocument();
    expect(within(nas).getByText('Synology Incorporated')).toBeInTheDocument();
    expect(within(nas).getByRole('link', { name: 'HQ Berlin' })).toHaveAttribute(
      'href',
      `/devices/${BERLIN_ID}`,
    );
    expect(within(nas).getByText('DHCP lease')).toBeInTheDocument();
    expect(within(nas).getByText('Active')).toBeInTheDocument();
    expect(within(nas).getByText('3 days ago')).toBeInTheDocument();
    expect(within(nas).getByText('2 minutes ago')).toBeInTheDocument();

    const printer = await rowOf('hq-printer-2og');
    expect(within(printer).getByText('Inactive')).toBeInTheDocument();
    expect(within(printer).getByText('HP Inc.')).toBeInTheDocument();

    // A host without a name goes by its MAC address; one with a private address has no vendor.
    const pos = await rowOf('da:a1:19:5f:22:80');
    expect(within(pos).getByText('ARP table')).toBeInTheDocument();
    expect(within(pos).getByText('Unknown')).toBeInTheDocument();
    expect(within(pos).getByRole('link', { name: 'Store Cologne' })).toHaveAttribute(
      'href',
      `/devices/${COLOGNE_ID}`,
    );

    expect(screen.getByText('3 devices')).toBeInTheDocument();
    expect(screen.getByText(/The list refreshes every 15 seconds/)).toBeInTheDocument();
    expect(lists()[0]).toEqual({ limit: '25', offset: '0', sort: 'lastSeenAt', order: 'desc' });
    await waitFor(() => expect(gatewayQueries()[0]).toMatchObject({ kind: 'site', sort: 'name' }));
    expect(api.unhandled).toEqual([]);
  });

  it('sends the gateway and the search to the server and keeps them in the address', async () => {
    const { lists } = fakeListApi((query) =>
      keysetPage(query.get('gatewayId') === COLOGNE_ID ? [POS] : [NAS, PRINTER, POS]),
    );
    const { user, router } = renderList();
    await rowOf('hq-nas');

    await user.click(screen.getByRole('combobox', { name: 'Gateway' }));
    await user.click(await screen.findByRole('option', { name: 'Store Cologne', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'hq-nas' })).not.toBeInTheDocument());
    expect(lists().at(-1)).toMatchObject({ gatewayId: COLOGNE_ID, offset: '0' });

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'da:a1');
    await waitFor(() =>
      expect(lists().at(-1)).toEqual({
        limit: '25',
        offset: '0',
        sort: 'lastSeenAt',
        order: 'desc',
        q: 'da:a1',
        gatewayId: COLOGNE_ID,
      }),
    );
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      q: 'da:a1',
      gatewayId: COLOGNE_ID,
    });
  });

  it('sorts on the server by host name, IP address and last seen', async () => {
    const { lists } = fakeListApi();
    const { user, router } = renderList();
    await rowOf('hq-nas');

    await user.click(screen.getByRole('button', { name: /^IP address/ }));
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ sort: 'ip', order: 'asc' }));
    expect(router.state.location.search).toBe('?sort=ip&order=asc');

    await user.click(screen.getByRole('button', { name: /^Host name/ }));
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ sort: 'hostname', order: 'asc' }));
    await user.click(screen.getByRole('button', { name: /^Host name/ }));
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ sort: 'hostname', order: 'desc' }));
    expect(router.state.location.search).toBe('?sort=hostname');

    await user.click(screen.getByRole('button', { name: /^Last seen/ }));
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ sort: 'lastSeenAt', order: 'asc' }));
    expect(router.state.location.search).toBe('?order=asc');
  });

  it('restores the list from the address and pages with the cursor of the page before', async () => {
    const { lists } = fakeListApi((query) =>
      query.get('offset') === '25'
        ? { items: [POS], total: null, totalIsEstimate: false, nextCursor: null }
        : { items: [NAS, PRINTER], total: 26, totalIsEstimate: false, nextCursor: 'after-printer' },
    );
    const { user } = renderList(makeSession(), `/devices/internal-devices?gatewayId=${BERLIN_ID}&q=hq`);
    await rowOf('hq-nas');
    expect(lists()[0]).toMatchObject({ gatewayId: BERLIN_ID, q: 'hq' });
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Gateway' })).toHaveValue('HQ Berlin'));

    await user.click(screen.getByRole('button', { name: '2' }));
    await rowOf('da:a1:19:5f:22:80');
    expect(lists().at(-1)).toMatchObject({ offset: '25', cursor: 'after-printer', withTotal: 'false' });
  });

  it('says when nothing was seen yet, and when nothing matches', async () => {
    fakeListApi(() => keysetPage([]));
    const first = renderList();
    expect(await screen.findByText(/No hosts seen yet/)).toBeInTheDocument();
    first.unmount();
    renderList(makeSession(), '/devices/internal-devices?q=printer');
    expect(await screen.findByText('No internal devices match these filters.')).toBeInTheDocument();
  });

  it('refreshes every 15 seconds while the tab is visible, not in a background tab', () => {
    const options = internalDevicesQueryOptions('acme', {});
    expect(options.refetchInterval).toBe(15_000);
    expect(options.refetchIntervalInBackground).toBe(false);
  });
});
