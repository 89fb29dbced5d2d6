import { type DeviceRoute, networkEndpoints } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { BRANCH_POLICY, BRANCH_RULE, CARRIED, DEVICE_ID, LAB_RULE } from '../testing/fixtures';
import { Component as DeviceRouteView } from './device-route';

function renderView(answer: DeviceRoute) {
  const api = fakeApi().on(networkEndpoints.getDeviceRoute, () => answer);
  const view = renderRoutes([{ path: '/devices/route/:id/:deviceid', element: <DeviceRouteView /> }], {
    route: `/devices/route/${answer.route.ruleId}/${DEVICE_ID}`,
    session: makeSession(),
  });
  return { api, ...view };
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

describe('a route as one device gets it', { timeout: 20_000 }, () => {
  it('says that this route carries the device’s traffic, through which gateway, with the tunnel', async () => {
    const { api } = renderView(CARRIED);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Branch offices for Ada’s laptop' }),
    ).toBeInTheDocument();
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent('This route carries the traffic');
    expect(verdict).toHaveTextContent(
      'Traffic from Ada’s laptop to 10.20.0.1 goes through HQ Berlin by route Branch offices.',
    );
    expect(shownFor('User')).toHaveTextContent('ada@acme.example');
    expect(shownFor('Tunnel address')).toHaveTextContent('100.64.0.7/32');
    expect(shownFor('Destination')).toHaveTextContent('10.20.0.1');
    expect(shownFor('Decision')).toHaveTextContent('Allowed');
    expect(shownFor('Routed through')).toHaveTextContent('hq-cybernode');
    expect(within(shownFor('Deciding rule')).getByRole('link')).toHaveAttribute(
      'href',
      `/devices/route/${BRANCH_RULE}`,
    );
    const tunnel = screen.getByRole('region', { name: 'AllowedIPs towards the gateway' });
    expect(
      within(tunnel)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['100.100.1.0/24', '10.20.0.0/16', '10.30.0.0/16']);
    expect(api.calls(networkEndpoints.getDeviceRoute)[0].params).toMatchObject({
      id: BRANCH_RULE,
      deviceId: DEVICE_ID,
    });
  });

  it('says when another route takes the traffic, naming it', async () => {
    renderView({
      ...CARRIED,
      route: { ...CARRIED.route, ruleId: LAB_RULE, ruleName: 'Lab network', target: 'lab-gw', gateway: null },
      isThisRoute: false,
      allowedIps: [],
    });
    await screen.findByRole('heading', { level: 1 });
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent('This route does not carry the traffic');
    expect(verdict).toHaveTextContent(
      'Traffic from Ada’s laptop to 10.20.0.1 does not go through this route.',
    );
    expect(verdict).toHaveTextContent(
      'Route Branch offices of policy Branch routes takes precedence and sends it through hq-cybernode.',
    );
    expect(screen.queryByText('This route carries the traffic')).not.toBeInTheDocument();
    expect(screen.getByText(/None: the device has no tunnel to this route’s gateway/)).toBeInTheDocument();
  });

  it('says when a blocking rule decides first', async () => {
    renderView({
      ...CARRIED,
      decision: 'block',
      gatewayTarget: null,
      isThisRoute: false,
      decidedBy: {
        policyId: BRANCH_POLICY,
        policyName: 'Quarantine',
        ruleId: 'r-block',
        ruleName: 'Quarantined laptops',
        type: 'ROUTE',
        action: 'block',
        system: false,
      },
    });
    await screen.findByRole('heading', { level: 1 });
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent(
      'Rule Quarantined laptops of policy Quarantine decides it first (Blocks).',
    );
    expect(shownFor('Decision')).toHaveTextContent('Blocked');
    expect(shownFor('Routed through')).toHaveTextContent('No gateway: not routed');
  });
});
