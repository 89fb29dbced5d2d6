import { networkEndpoints } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { ALL_ROUTES, BRANCH_POLICY, BRANCH_RULE, LAB_RULE } from '../testing/fixtures';
import { Component as RoutesList } from './routes-list';

function renderList(session = makeSession(), route = '/devices/route/list') {
  return renderRoutes([{ path: '/devices/route/list', element: <RoutesList /> }], { route, session });
}

/** The row of the table whose row header is `name`. */
const rowOf = (name: string) => {
  const header = screen.getByRole('rowheader', { name: new RegExp(name) });
  const row = header.closest('tr');
  if (!row) throw new Error(`No row ${name}`);
  return row;
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('routes list', { timeout: 20_000 }, () => {
  it('lists the routes through a gateway with their networks, gateway status, policy and state', async () => {
    const api = fakeApi().on(networkEndpoints.listRoutes, () => ({ items: ALL_ROUTES }));
    renderList();
    expect(await screen.findByRole('heading', { level: 1, name: 'Routes' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    // Only action `route` by default: the block rule is left out, the system route is in.
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Branch offices', 'route rule: site MunichSystem', 'Lab network']);
    const branch = rowOf('Branch offices');
    expect(within(branch).getByText('10.20.0.0/16')).toBeInTheDocument();
    expect(within(branch).getByText('10.30.0.0/16')).toBeInTheDocument();
    expect(within(branch).getByText('HQ Berlin')).toBeInTheDocument();
    expect(within(branch).getByText('Online')).toBeInTheDocument();
    expect(within(branch).getByText('Active')).toBeInTheDocument();
    expect(within(branch).getByRole('link', { name: 'Branch routes' })).toHaveAttribute(
      'href',
      `/policy/list?policy=${BRANCH_POLICY}`,
    );
    expect(within(branch).getByRole('link', { name: 'Open route Branch offices' })).toHaveAttribute(
      'href',
      `/devices/route/${BRANCH_RULE}`,
    );
    expect(within(branch).getByRole('link', { name: 'Copy route Branch offices' })).toHaveAttribute(
      'href',
      `/device/route/${BRANCH_RULE}/copy`,
    );
    expect(within(rowOf('route rule: site Munich')).getByText('Offline')).toBeInTheDocument();
    const lab = rowOf('Lab network');
    expect(within(lab).getByText('No gateway answers to lab-gw')).toBeInTheDocument();
    expect(within(lab).getByText('Inactive')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add route' })).toHaveAttribute('href', '/devices/routes/');
    expect(api.unhandled).toEqual([]);
  });

  it('shows every ROUTE rule, allow and block ones too, with the switch', async () => {
    fakeApi().on(networkEndpoints.listRoutes, () => ({ items: ALL_ROUTES }));
    const { user, router } = renderList();
    await screen.findByRole('table');
    expect(screen.queryByRole('rowheader', { name: 'No printers' })).not.toBeInTheDocument();
    expect(screen.queryByRole('rowheader', { name: 'Printers reachable' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: /Show every route rule/ }));
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('rowheader')).toHaveLength(5);
    expect(within(rowOf('Printers reachable')).getByText('Allows')).toBeInTheDocument();
    const blocked = rowOf('No printers');
    expect(within(blocked).getByText('Blocks')).toBeInTheDocument();
    // A block rule goes through no gateway, so no copy as a route.
    expect(within(blocked).queryByRole('link', { name: /Copy/ })).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('?all=true');
  });

  it('filters by name, network and gateway as you type', async () => {
    fakeApi().on(networkEndpoints.listRoutes, () => ({ items: ALL_ROUTES }));
    const { user } = renderList();
    await screen.findByRole('table');
    const search = screen.getByRole('searchbox', { name: 'Search routes' });
    await user.type(search, '192.168');
    expect(screen.getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual(['Lab network']);
    await user.clear(search);
    await user.type(search, 'hq berlin');
    expect(screen.getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual(['Branch offices']);
    await user.clear(search);
    await user.type(search, 'nothing like it');
    expect(screen.getByText('No route matches this search.')).toBeInTheDocument();
  });

  it('hides adding and copying from a role that may only view policies', async () => {
    fakeApi().on(networkEndpoints.listRoutes, () => ({ items: ALL_ROUTES }));
    renderList(makeSession({ role: 'security_analyst' }));
    const table = await screen.findByRole('table');
    expect(screen.queryByRole('link', { name: 'Add route' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('link', { name: /^Copy route/ })).not.toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Open route Lab network' })).toHaveAttribute(
      'href',
      `/devices/route/${LAB_RULE}`,
    );
  });
});
