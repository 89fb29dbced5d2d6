import { type Gateway, gatewayEndpoints, type Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { gatewayQueryOptions } from '../api/get-gateway';
import { BERLIN_SITE, FRANKFURT, NEW_NODE, OWN_NODE } from '../testing/gateway-fixtures';
import { Component as GatewayView } from './gateway-view';

const TOKEN = 'gwe_cm90YXRlZCBmb3IgdGhlIHRlc3Qgb25seSBhbmQgbm90aGluZyBlbHNl';

/** The fake API of one gateway, answering the actions as the server would. */
function fakeGatewayApi(start: Gateway) {
  let gateway = start;
  const api = fakeApi()
    .on(gatewayEndpoints.getGateway, ({ params }) =>
      params.id === gateway.id ? gateway : apiError('not_found'),
    )
    .on(gatewayEndpoints.retireGateway, () => {
      gateway = { ...gateway, status: 'retired', isDrifting: false };
      return gateway;
    })
    .on(gatewayEndpoints.rotateGatewayCredentials, () => {
      gateway = { ...gateway, status: 'pending', enrolledAt: null };
      return { cybernode: gateway, enrolmentToken: { token: TOKEN, expiresAt: '2026-03-02T10:00:00.000Z' } };
    })
    .on(gatewayEndpoints.upgradeGateway, ({ body }) => {
      gateway = {
        ...gateway,
        upgrade: {
          targetVersion: body.targetVersion,
          requestedAt: new Date().toISOString(),
          state: 'pending',
        },
      };
      return gateway;
    })
    .on(gatewayEndpoints.updateGateway, ({ body }) => {
      gateway = { ...gateway, name: body.name, region: body.region };
      return gateway;
    });
  return api;
}

function renderView(id: string | null, session: Session = makeSession()) {
  return renderRoutes(
    [
      { path: '/cybernodes/view', element: <GatewayView /> },
      { path: '/cybernodes/list', element: <h1>All gateways</h1> },
    ],
    { route: id === null ? '/cybernodes/view' : `/cybernodes/view?id=${id}`, session },
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

describe('gateway view', { timeout: 20_000 }, () => {
  it('shows status, identity, load in words and bars, and that it enforces the current policy', async () => {
    const api = fakeGatewayApi(FRANKFURT);
    renderView(FRANKFURT.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'Frankfurt 1' })).toBeInTheDocument();
    expect(shownFor('Status')).toHaveTextContent('Online');
    expect(shownFor('Kind')).toHaveTextContent('Cybernode');
    expect(shownFor('Region')).toHaveTextContent('Europe, central (eu-central)');
    expect(shownFor('Server name')).toHaveTextContent('fra1');
    expect(shownFor('Hostname')).toHaveTextContent('frankfurt-1.example');
    expect(shownFor('Software version')).toHaveTextContent('1.4.2');
    expect(shownFor('Uptime')).toHaveTextContent('3 days, 4 hours');
    expect(screen.getByRole('progressbar', { name: 'CPU' })).toHaveAttribute('aria-valuenow', '37');
    expect(screen.getByRole('progressbar', { name: 'Memory' })).toHaveAttribute('aria-valuenow', '62');
    expect(shownFor('Throughput')).toHaveTextContent('12.5 Mb/s');
    expect(shownFor('Active tunnels')).toHaveTextContent('1,234');
    expect(shownFor('Connected users')).toHaveTextContent('87');

    const policy = screen.getByRole('region', { name: 'Policy' });
    expect(within(policy).getByText('Enforces the current policy')).toBeInTheDocument();
    expect(within(policy).queryByText('Behind')).not.toBeInTheDocument();
    expect(shownFor('Enforced policy version')).toHaveTextContent(FRANKFURT.enforcedVersion ?? 'missing');
    expect(shownFor('Current policy version')).toHaveTextContent(FRANKFURT.currentVersion ?? 'missing');
    expect(screen.queryByRole('region', { name: 'Upgrade' })).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('shows where devices reach the gateway, or that it has not said yet', async () => {
    fakeGatewayApi({ ...FRANKFURT, endpoint: 'fra1.cybernodes.example:51820' });
    const first = renderView(FRANKFURT.id);
    await screen.findByRole('heading', { level: 1, name: 'Frankfurt 1' });
    expect(shownFor('Endpoint for devices')).toHaveTextContent('fra1.cybernodes.example:51820');
    expect(shownFor('Tunnel network')).toHaveTextContent('100.100.1.1/24');
    expect(shownFor('WireGuard port')).toHaveTextContent('51820');
    first.unmount();

    fakeGatewayApi(NEW_NODE);
    renderView(NEW_NODE.id);
    await screen.findByRole('heading', { level: 1, name: 'New node' });
    expect(shownFor('Endpoint for devices')).toHaveTextContent('Not reported yet');
    // The tenant's bundle history is one click away from the policy a gateway enforces.
    expect(
      within(screen.getByRole('region', { name: 'Policy' })).getByRole('button', { name: 'Policy bundles' }),
    ).toBeInTheDocument();
  });

  it('says when a gateway is behind the current policy, and when it drifts', async () => {
    fakeGatewayApi(BERLIN_SITE);
    const first = renderView(BERLIN_SITE.id);
    const policy = await screen.findByRole('region', { name: 'Policy' });
    expect(within(policy).getByText('Behind')).toBeInTheDocument();
    expect(within(policy).getByText(/enforces an older policy version/)).toBeInTheDocument();
    expect(within(policy).queryByText('Enforces the current policy')).not.toBeInTheDocument();
    // A site gateway names its site, not a region.
    expect(shownFor('Site / location')).toHaveTextContent('Berlin office');
    first.unmount();

    fakeGatewayApi(OWN_NODE);
    renderView(OWN_NODE.id);
    const drifting = await screen.findByRole('region', { name: 'Policy' });
    expect(within(drifting).getByText('Drifting')).toBeInTheDocument();
    expect(within(drifting).getByText(/behind the current policy for too long/)).toBeInTheDocument();
  });

  it('shows a pending upgrade, and one that timed out', async () => {
    fakeGatewayApi({
      ...FRANKFURT,
      upgrade: { targetVersion: '1.5.0', requestedAt: '2026-03-01T10:00:00.000Z', state: 'timedOut' },
    });
    renderView(FRANKFURT.id);
    const upgrade = await screen.findByRole('region', { name: 'Upgrade' });
    expect(within(upgrade).getByText('1.5.0')).toBeInTheDocument();
    expect(within(upgrade).getByText('Timed out')).toBeInTheDocument();
    expect(within(upgrade).getByText(/did not report the new version within 15 minutes/)).toBeInTheDocument();
  });

  it('retires only after a confirmation, then shows the gateway retired without actions', async () => {
    const api = fakeGatewayApi(FRANKFURT);
    const { user } = renderView(FRANKFURT.id);
    await user.click(await screen.findByRole('button', { name: 'Retire' }));
    let dialog = await screen.findByRole('dialog', { name: 'Retire “Frankfurt 1”?' });
    expect(within(dialog).getByText(/cannot be undone/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls(gatewayEndpoints.retireGateway)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Retire' }));
    dialog = await screen.findByRole('dialog', { name: 'Retire “Frankfurt 1”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Retire gateway' }));
    await waitFor(() => expect(api.calls(gatewayEndpoints.retireGateway)).toHaveLength(1));
    expect(api.calls(gatewayEndpoints.retireGateway)[0].params.id).toBe(FRANKFURT.id);

    expect(await screen.findByText('This gateway is retired')).toBeInTheDocument();
    expect(shownFor('Status')).toHaveTextContent('Retired');
    for (const name of ['Retire', 'Rename', 'Rotate credentials', 'Upgrade']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });

  it('rotates the credentials after a confirmation and shows the new one-time token and command', async () => {
    const api = fakeGatewayApi(FRANKFURT);
    const { user } = renderView(FRANKFURT.id);
    await user.click(await screen.findByRole('button', { name: 'Rotate credentials' }));
    const confirm = await screen.findByRole('dialog', { name: 'Rotate the credentials of “Frankfurt 1”?' });
    expect(api.calls(gatewayEndpoints.rotateGatewayCredentials)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Rotate credentials' }));

    const shown = await screen.findByRole('dialog', { name: 'New enrolment token' });
    expect(api.calls(gatewayEndpoints.rotateGatewayCredentials)).toHaveLength(1);
    expect(within(shown).getByText(/shown only this once/)).toBeInTheDocument();
    expect(within(shown).getByText(TOKEN)).toBeInTheDocument();
    expect(
      within(shown).getByText(`npm run gateway -- --server ${window.location.origin} --token ${TOKEN}`),
    ).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'I have stored it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText(TOKEN)).not.toBeInTheDocument();
    expect(shownFor('Status')).toHaveTextContent('Pending enrolment');
  });

  it('requests an upgrade to a version of the form x.y.z', async () => {
    const api = fakeGatewayApi(FRANKFURT);
    const { user } = renderView(FRANKFURT.id);
    await user.click(await screen.findByRole('button', { name: 'Upgrade' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade “Frankfurt 1”' });
    const field = within(dialog).getByRole('textbox', { name: 'Target version' });
    await user.type(field, 'latest');
    await user.click(within(dialog).getByRole('button', { name: 'Request upgrade' }));
    expect(within(dialog).getByText('Enter a version such as 1.4.2.')).toBeInTheDocument();
    expect(api.calls(gatewayEndpoints.upgradeGateway)).toHaveLength(0);

    await user.clear(field);
    await user.type(field, '1.5.0');
    await user.click(within(dialog).getByRole('button', { name: 'Request upgrade' }));
    await waitFor(() =>
      expect(api.calls(gatewayEndpoints.upgradeGateway).map((call) => call.sentBody)).toEqual([
        { targetVersion: '1.5.0' },
      ]),
    );
    const upgrade = await screen.findByRole('region', { name: 'Upgrade' });
    expect(within(upgrade).getByText('Pending')).toBeInTheDocument();
  });

  it('renames, showing the server’s field problems on the field', async () => {
    const api = fakeGatewayApi(BERLIN_SITE);
    api.on(gatewayEndpoints.updateGateway, () =>
      apiError('validation_failed', { details: [{ path: 'body.region', message: 'validation.tooLong' }] }),
    );
    const { user } = renderView(BERLIN_SITE.id);
    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename “Berlin office”' });
    const site = within(dialog).getByRole('textbox', { name: 'Site / location' });
    expect(site).toHaveValue('Berlin office');
    await user.clear(site);
    await user.type(site, 'Berlin, Alexanderplatz');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls(gatewayEndpoints.updateGateway).map((call) => call.sentBody)).toEqual([
        { name: 'Berlin office', region: 'Berlin, Alexanderplatz' },
      ]),
    );
    expect(await within(dialog).findByText('This is too long.')).toBeInTheDocument();
    expect(site).toHaveAttribute('aria-invalid', 'true');
  });

  it('hides every action from a role without gateways:update and gateways:delete', async () => {
    fakeGatewayApi(FRANKFURT);
    renderView(FRANKFURT.id, makeSession({ role: 'auditor' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Frankfurt 1' })).toBeInTheDocument();
    for (const name of ['Retire', 'Rename', 'Rotate credentials', 'Upgrade']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'Back to gateways' })).toBeInTheDocument();
  });

  it('shows a gateway waiting for enrolment without load or policy comparison', async () => {
    fakeGatewayApi(NEW_NODE);
    renderView(NEW_NODE.id);
    expect(await screen.findByText('Waiting for enrolment')).toBeInTheDocument();
    expect(screen.getByText('The gateway has not reported its load yet.')).toBeInTheDocument();
    expect(screen.getByText('It receives the policy once it has enrolled.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('says "not found" with a way back, without an id, with a malformed one and with an unknown one', async () => {
    const api = fakeGatewayApi(FRANKFURT);
    const first = renderView(null);
    expect(screen.getByRole('heading', { name: 'Gateway not found' })).toBeInTheDocument();
    first.unmount();
    const second = renderView('not-a-uuid');
    expect(screen.getByRole('heading', { name: 'Gateway not found' })).toBeInTheDocument();
    second.unmount();
    // Neither was asked for.
    expect(api.calls(gatewayEndpoints.getGateway)).toHaveLength(0);

    const { user, router } = renderView('99999999-9999-4999-8999-999999999999');
    expect(await screen.findByRole('heading', { name: 'Gateway not found' })).toBeInTheDocument();
    expect(api.calls(gatewayEndpoints.getGateway)).toHaveLength(1);
    await user.click(screen.getByRole('link', { name: 'Back to gateways' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/cybernodes/list'));
  });

  it('refreshes every 5 seconds while the tab is visible, and stops asking for a gateway that is gone', () => {
    const options = gatewayQueryOptions('acme', FRANKFURT.id);
    const interval = options.refetchInterval as (query: { state: { error: unknown } }) => number | false;
    expect(options.refetchIntervalInBackground).toBe(false);
    expect(interval({ state: { error: null } })).toBe(5_000);
    expect(interval({ state: { error: new Error('network') } })).toBe(5_000);
    const gone = new ApiError(404, { errcode: 4, code: 'not_found', message: 'Not found.' });
    expect(interval({ state: { error: gone } })).toBe(false);
  });
});
