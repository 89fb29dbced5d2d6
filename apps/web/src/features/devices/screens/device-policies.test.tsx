import { deviceEndpoints, type PolicySummary, policyEndpoints } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { LAPTOP, makeDeviceDetail, PHONE } from '../testing/device-fixtures';
import { Component as DevicePolicies } from './device-policies';

const LAB_PG = '77777777-7777-4777-8777-777777777777';

function routePolicy(id: string, name: string, overrides: Partial<PolicySummary> = {}): PolicySummary {
  return {
    id,
    type: 'route',
    name,
    description: '',
    enabled: true,
    precedence: 0,
    ruleCount: 2,
    policyGroups: [],
    blockPage: true,
    fullTunnel: false,
    updatedAt: new Date().toISOString(),
    ...overrides,
  };
}

const TO_LAB = routePolicy('11111111-0000-4000-8000-000000000001', 'To the lab', {
  policyGroups: [{ id: LAB_PG, name: 'Lab devices' }],
});
const TO_HQ = routePolicy('11111111-0000-4000-8000-000000000002', 'Through HQ', {
  enabled: false,
  ruleCount: 1,
});

function fakePoliciesApi() {
  return fakeApi()
    .on(policyEndpoints.listPolicies, () => ({ qos: [], user: [], device: [TO_LAB, TO_HQ] }))
    .on(deviceEndpoints.listDevices, () => ({
      items: [LAPTOP, PHONE],
      total: 2,
      totalIsEstimate: false,
      nextCursor: null,
    }))
    .on(deviceEndpoints.getDeviceDetail, () =>
      makeDeviceDetail(LAPTOP, {
        policies: [
          {
            id: TO_LAB.id,
            name: TO_LAB.name,
            type: 'route',
            enabled: true,
            via: [{ kind: 'device', policyGroup: 'Lab devices', group: null }],
          },
        ],
      }),
    );
}

beforeEach(() => {
  localStorage.clear();
});

describe('device policies', { timeout: 20_000 }, () => {
  it('lists the route policies in order, then only those of a chosen device, with what carries them', async () => {
    fakePoliciesApi();
    const { user } = renderRoutes([{ path: '/devices/policies/list', element: <DevicePolicies /> }], {
      route: '/devices/policies/list',
      session: makeSession(),
    });
    const table = await screen.findByRole('table', { name: 'Device policies' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1].textContent)).toEqual([
      'To the lab',
      'Through HQ',
    ]);
    expect(within(rows[0]).getByRole('link', { name: 'Lab devices' })).toHaveAttribute(
      'href',
      `/policy/policyGroups/${LAB_PG}`,
    );
    expect(within(rows[1]).getByText('Everyone')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Disabled')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Device' }));
    await user.click(await screen.findByRole('option', { name: /Ann’s laptop/, hidden: true }));
    const mine = await screen.findByRole('table', { name: 'Device policies that apply to Ann’s laptop' });
    const applying = within(mine).getAllByRole('row').slice(1);
    expect(applying).toHaveLength(1);
    expect(within(applying[0]).getByRole('link', { name: 'To the lab' })).toHaveAttribute(
      'href',
      `/policy/list?policy=${TO_LAB.id}`,
    );
    expect(applying[0]).toHaveTextContent('Lab devices');
  });
});
