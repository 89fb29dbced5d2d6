import { type Gateway, gatewayEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { getNetworkMap, NETWORK_MAP_CAP, networkMapQueryOptions } from '../api/get-network-map';
import { BERLIN_SITE, FRANKFURT, makeGateway, NEW_NODE, OWN_NODE } from '../testing/gateway-fixtures';
import { Component as NetworkMap } from './network-map';

const MUNICH_SITE = makeGateway({
  id: '77777777-7777-4777-8777-777777777777',
  name: 'Munich branch',
  kind: 'lgw',
  region: 'eu-central',
  status: 'pending',
});
const RETIRED = makeGateway({
  id: '88888888-8888-4888-8888-888888888888',
  name: 'Old node',
  status: 'retired',
});
const ALL = [BERLIN_SITE, FRANKFURT, MUNICH_SITE, NEW_NODE, OWN_NODE, RETIRED];

function renderMap(session = makeSession()) {
  return renderRoutes(
    [
      { path: '/servers-nwmap', element: <NetworkMap /> },
      { path: '/cybernodes/view', element: <h1>Gateway page</h1> },
      { path: '/cybernodes/list', element: <h1>All gateways</h1> },
      { path: '/sign-in', element: <h1>Sign in</h1> },
    ],
    { route: '/servers-nwmap', session },
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('network map', () => {
  it('draws a node per gateway with its name linking to its page, its kind and its status in words', async () => {
    const api = fakeApi().on(gatewayEndpoints.listGateways, () => keysetPage(ALL));
    renderMap();
    const graph = await screen.findByRole('region', { name: 'Network map of 5 gateways' });
    expect(graph).toHaveAccessibleDescription(/Online: solid line/);
    for (const gateway of [FRANKFURT, BERLIN_SITE, MUNICH_SITE, NEW_NODE, OWN_NODE]) {
      const node = within(graph).getByRole('group', { name: new RegExp(`^${gateway.name}, `) });
      const link = within(node).getByRole('link', { name: gateway.name });
      expect(link).toHaveAttribute('href', `/cybernodes/view?id=${gateway.id}`);
    }
    expect(within(graph).getByRole('group', { name: 'Frankfurt 1, Cybernode, Online' })).toHaveTextContent(
      'Online',
    );
    expect(
      within(graph).getByRole('group', { name: 'Berlin office, Site gateway (CGW), Offline' }),
    ).toHaveTextContent('Offline');
    expect(
      within(graph).getByRole('group', { name: 'Munich branch, Local gateway (LGW), Pending enrolment' }),
    ).toHaveTextContent('Pending enrolment');
    expect(within(graph).getByRole('group', { name: 'Palisade cloud' })).toBeInTheDocument();
    expect(
      within(graph).getByRole('group', { name: 'Region Europe, central (eu-central)' }),
    ).toBeInTheDocument();
    expect(within(graph).queryByText('Old node')).not.toBeInTheDocument();
    expect(screen.getByText('1 retired gateway is not shown.')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('lists the same gateways in a table with status and what each links to, which can be hidden', async () => {
    fakeApi().on(gatewayEndpoints.listGateways, () => keysetPage(ALL));
    const { user, router } = renderMap();
    const table = await screen.findByRole('table', { name: 'Gateways on the map and what each links to' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Frankfurt 1', 'Cybernode', 'Europe, central (eu-central)', 'Online', 'Palisade cloud'],
      ['New node', 'Cybernode', 'Europe, central (eu-central)', 'Pending enrolment', 'Palisade cloud'],
      ['Own node', 'Virtual cybernode', 'United States, east (us-east)', 'Online', 'Palisade cloud'],
      [
        'Munich branch',
        'Local gateway (LGW)',
        'Europe, central (eu-central)',
        'Pending enrolment',
        'Frankfurt 1',
      ],
      ['Berlin office', 'Site gateway (CGW)', 'Berlin office', 'Offline', 'Palisade cloud'],
    ]);
    const toggle = screen.getByRole('button', { name: 'Hide list' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(toggle);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show list' }));
    await user.click(within(screen.getByRole('table')).getByRole('link', { name: 'Munich branch' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${MUNICH_SITE.id}`));
  });

  it('pages through every gateway with the keyset cursor, up to the cap', async () => {
    const many: Gateway[] = Array.from({ length: 600 }, (_, i) =>
      makeGateway({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        name: `Site ${String(i).padStart(3, '0')}`,
        kind: 'cgw',
        region: `Site ${i}`,
      }),
    );
    const api = fakeApi().on(gatewayEndpoints.listGateways, ({ query }) => {
      const start = query.cursor ? Number(query.cursor.slice(1)) : 0;
      const items = many.slice(start, start + query.limit);
      const next = start + query.limit;
      return { items, total: query.cursor ? null : 600, totalIsEstimate: false, nextCursor: `c${next}` };
    });
    const data = await getNetworkMap('acme');
    expect(data.gateways).toHaveLength(NETWORK_MAP_CAP);
    expect(data).toMatchObject({ total: 600, isTruncated: true });
    const calls = api
      .calls(gatewayEndpoints.listGateways)
      .map((call) => Object.fromEntries(call.url.searchParams));
    expect(calls.map((q) => [q.limit, q.cursor, q.withTotal])).toEqual([
      ['200', undefined, 'true'],
      ['200', 'c200', 'false'],
      ['100', 'c400', 'false'],
    ]);
  });

  it('does not say the map is cut short when it holds every gateway', async () => {
    fakeApi().on(gatewayEndpoints.listGateways, () => ({
      items: [FRANKFURT],
      total: 1,
      totalIsEstimate: false,
      nextCursor: null,
    }));
    renderMap();
    await screen.findByRole('region', { name: 'Network map of 1 gateway' });
    expect(screen.queryByText(/The map shows the first/)).not.toBeInTheDocument();
  });

  it('refreshes every 5 seconds while the tab is visible', () => {
    const options = networkMapQueryOptions('acme');
    expect(options.refetchInterval).toBe(5_000);
    expect(options.refetchIntervalInBackground).toBe(false);
  });

  it('says when there is nothing to draw, and shows a failure with a retry', async () => {
    const api = fakeApi().on(gatewayEndpoints.listGateways, () => keysetPage([]));
    const first = renderMap();
    expect(await screen.findByText('No gateways yet.')).toBeInTheDocument();
    first.unmount();

    api.on(gatewayEndpoints.listGateways, () => apiError('forbidden'));
    renderMap();
    expect(await screen.findByRole('alert')).toHaveTextContent('Loading failed');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('sends a visitor without a session to sign in, without asking for the map', async () => {
    const api = fakeApi();
    const { router } = renderMap(null as never);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(api.requests).toEqual([]);
  });
});
