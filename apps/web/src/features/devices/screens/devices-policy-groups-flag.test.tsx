import {
  CONFIG_FLAGS,
  deviceEndpoints,
  enrolmentEndpoints,
  policyEndpoints,
  userEndpoints,
} from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { LAPTOP, makeDeviceDetail, PHONE } from '../testing/device-fixtures';
import { DeviceDetailScreen } from './device-detail';
import { Component as DevicesList } from './devices-list';

// While the tenant has policy groups off (its `policyGroups` configuration flag, spec §6), the device screens
// offer no move into a policy group, show no policy-group section and never ask for the policy groups (the
// server answers 403 then).

const session = (policyGroups: boolean) => makeSession({ configurations: { ...CONFIG_FLAGS, policyGroups } });

function fakeDevicesApi() {
  return fakeApi()
    .on(deviceEndpoints.listDevices, () => keysetPage([LAPTOP, PHONE]))
    .on(userEndpoints.listGroupOptions, () => [])
    .on(enrolmentEndpoints.listUserDevices, () => ({ items: [], total: 0 }))
    .on(deviceEndpoints.getDeviceDetail, ({ params }) =>
      params.id === LAPTOP.id
        ? makeDeviceDetail(LAPTOP, { policyGroups: [{ id: 'pg-1', name: 'Engineering laptops' }] })
        : apiError('not_found'),
    )
    .on(policyEndpoints.listPolicyGroups, () => []);
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('devices while policy groups are off', { timeout: 20_000 }, () => {
  it('has no "Move to policy group" among the bulk actions, and asks for no policy group', async () => {
    const api = fakeDevicesApi();
    const { user } = renderRoutes([{ path: '/devices/list', element: <DevicesList /> }], {
      route: '/devices/list',
      session: session(false),
    });
    await screen.findByRole('link', { name: 'Ann’s laptop' });
    await user.click(screen.getByRole('checkbox', { name: 'Select Ann’s laptop' }));
    expect(screen.getByRole('button', { name: 'Disable' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move to policy group' })).not.toBeInTheDocument();
    expect(api.calls(policyEndpoints.listPolicyGroups)).toHaveLength(0);
  });

  it('offers the move while on', async () => {
    fakeDevicesApi();
    const { user } = renderRoutes([{ path: '/devices/list', element: <DevicesList /> }], {
      route: '/devices/list',
      session: session(true),
    });
    await screen.findByRole('link', { name: 'Ann’s laptop' });
    await user.click(screen.getByRole('checkbox', { name: 'Select Ann’s laptop' }));
    expect(screen.getByRole('button', { name: 'Move to policy group' })).toBeInTheDocument();
  });

  it('shows no policy-group section on the device page while off', async () => {
    const api = fakeDevicesApi();
    const { unmount } = renderRoutes(
      [{ path: '/devices/:id', element: <DeviceDetailScreen siteConfig={null} /> }],
      {
        route: `/devices/${LAPTOP.id}`,
        session: session(false),
      },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann’s laptop' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Online history' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Policy groups' })).not.toBeInTheDocument();
    expect(api.calls(policyEndpoints.listPolicyGroups)).toHaveLength(0);
    unmount();

    renderRoutes([{ path: '/devices/:id', element: <DeviceDetailScreen siteConfig={null} /> }], {
      route: `/devices/${LAPTOP.id}`,
      session: session(true),
    });
    const groups = await screen.findByRole('region', { name: 'Policy groups' });
    expect(within(groups).getByRole('link', { name: 'Engineering laptops' })).toBeInTheDocument();
  });
});
