import { meshEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError } from '../../../testing/fake-api';
import { makeSession } from '../../../testing/render';
import {
  BERLIN_KEY,
  EDGE_ID,
  FRANKFURT_ID,
  FRANKFURT_KEY,
  fakeMeshApi,
  MESH_NONE,
  MESH_ON,
} from '../testing/fake-mesh';
import { ANN_ID, BERLIN_ID, BOB_ID, ENGINEERING_ID, MUNICH_ID } from '../testing/fixtures';
import { choose, isolateScreenTests, pickUser, screenRenderer } from '../testing/screen-helpers';
import { Component as Mesh } from './mesh';

const renderScreen = screenRenderer(Mesh, '/devices/spa/mesh');

/** The section of one gateway of the topology, found by its name (its heading). */
const nodeSection = (name: string) => screen.findByRole('region', { name });

/** The row of `peer` in the peers table of `node`. */
async function peerRow(node: string, peer: string): Promise<HTMLElement> {
  const table = within(await nodeSection(node)).getByRole('table', { name: `WireGuard peers of ${node}` });
  return within(table).getByRole('rowheader', { name: peer }).closest('tr') as HTMLElement;
}

const settingsForm = () => screen.getByRole('form', { name: 'Mesh settings' });

isolateScreenTests();

describe('private access mesh screen', { timeout: 20_000 }, () => {
  it('shows the settings and the topology: the hub first, each gateway with its peers and AllowedIPs', async () => {
    const api = fakeMeshApi();
    renderScreen();

    expect(await screen.findByRole('heading', { level: 1, name: 'Private access mesh' })).toBeInTheDocument();
    await nodeSection('Frankfurt');
    expect(screen.getByRole('switch', { name: 'Mesh on' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Mesh on' })).toHaveAccessibleDescription(
      /While the mesh is off, no gateway or device gets its tunnels/,
    );
    expect(screen.getByRole('combobox', { name: 'Hub' })).toHaveValue('Frankfurt');

    // The hub first, then the sites by name.
    const nodes = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(nodes).toEqual(['Frankfurt', 'Berlin office', 'Munich shop']);
    const hub = await nodeSection('Frankfurt');
    expect(within(hub).getByText('Hub')).toBeInTheDocument();
    expect(within(hub).getByText('Cybernode')).toBeInTheDocument();
    expect(within(hub).getByText('fra.cybernodes.example:51820')).toBeInTheDocument();
    expect(within(hub).getByText('Takes the devices as peers itself')).toBeInTheDocument();

    const munich = await nodeSection('Munich shop');
    expect(within(munich).getByText('Offline')).toBeInTheDocument();
    expect(within(munich).getByText('100.100.4.1/24')).toBeInTheDocument();
    expect(within(munich).getByText('None: it reaches out to its peers')).toBeInTheDocument();
    expect(within(munich).getByText('Devices reach it through the hub')).toBeInTheDocument();
    const munichNetworks = within(munich).getByRole('list', { name: 'Networks of Munich shop' });
    expect(within(munichNetworks).getByText('10.20.0.0/24')).toBeInTheDocument();

    // Berlin's peers: the hub (with the devices' network) and Munich, which has no endpoint and reaches out.
    const toHub = await peerRow('Berlin office', 'Frankfurt');
    const hubIps = within(toHub).getByRole('list', { name: 'AllowedIPs towards Frankfurt' });
    expect(within(hubIps).getByText('100.100.0.1/32')).toBeInTheDocument();
    expect(within(hubIps).getByText('100.64.0.0/16')).toBeInTheDocument();
    expect(within(toHub).getByText(`${FRANKFURT_KEY.slice(0, 8)}…`)).toBeInTheDocument();
    expect(within(toHub).getByTitle(FRANKFURT_KEY)).toBeInTheDocument();
    const toMunich = await peerRow('Berlin office', 'Munich shop');
    expect(within(toMunich).getByText('Reaches out')).toBeInTheDocument();
    expect(within(toMunich).getByText('10.20.0.0/24')).toBeInTheDocument();

    // The hub's peers are the sites with their networks; the full key is there for a screen reader.
    const toBerlin = await peerRow('Frankfurt', 'Berlin office');
    expect(within(toBerlin).getByText('203.0.113.10:51820')).toBeInTheDocument();
    expect(within(toBerlin).getByText('192.168.20.0/24')).toBeInTheDocument();
    expect(within(toBerlin).getByText(BERLIN_KEY)).toBeInTheDocument();

    const members = screen.getByRole('region', { name: 'Members’ devices' });
    expect(within(members).getByText('2 users')).toBeInTheDocument();
    expect(within(members).getByText('4 devices')).toBeInTheDocument();
    const perGateway = within(members).getByRole('table', {
      name: 'AllowedIPs a member’s device gets, per gateway',
    });
    const viaHub = within(perGateway)
      .getByRole('rowheader', { name: 'Frankfurt' })
      .closest('tr') as HTMLElement;
    expect(within(viaHub).getByText('192.168.1.0/24')).toBeInTheDocument();
    expect(within(viaHub).getByText('10.20.0.0/24')).toBeInTheDocument();

    expect(screen.queryByRole('heading', { name: 'To fix' })).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('switches a mesh on: sends the chosen hub, sites and members, toasts and shows the new topology', async () => {
    const api = fakeMeshApi({ mesh: MESH_NONE });
    const { user } = renderScreen();

    expect(await screen.findByText(/The mesh is off/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Members’ devices' })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Hub' })).toHaveValue(
      'None — devices reach the sites directly',
    );

    await user.click(screen.getByRole('switch', { name: 'Mesh on' }));
    // Retired gateways are not offered.
    await user.click(screen.getByRole('combobox', { name: 'Hub' }));
    expect(await screen.findByRole('option', { name: 'Acme edge', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Old node', hidden: true })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Acme edge', hidden: true }));
    await choose(user, 'Site gateways', 'Munich shop');
    await choose(user, 'Site gateways', 'Berlin office');
    expect(screen.queryByRole('option', { name: 'Old warehouse', hidden: true })).not.toBeInTheDocument();
    await pickUser(user, settingsForm(), 'Bob', 'Bob Baker (bob@acme.example)');
    await choose(user, 'Groups', 'Engineering');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.calls(meshEndpoints.putMesh)).toHaveLength(1));
    expect(api.calls(meshEndpoints.putMesh)[0].sentBody).toEqual({
      enabled: true,
      hubId: EDGE_ID,
      siteIds: [MUNICH_ID, BERLIN_ID],
      userIds: [BOB_ID],
      groupIds: [ENGINEERING_ID],
    });
    expect(
      await screen.findByText('Mesh saved. The gateways get the new tunnels with their next bundle.'),
    ).toBeInTheDocument();

    // The answer is shown at once: the new hub first, its peers the two sites.
    expect(await nodeSection('Acme edge')).toBeInTheDocument();
    expect(screen.queryByText(/The mesh is off/)).not.toBeInTheDocument();
    const toMunich = await peerRow('Acme edge', 'Munich shop');
    expect(within(toMunich).getByText('10.20.0.0/24')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Members’ devices' })).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('switches the mesh off and keeps what was chosen', async () => {
    const api = fakeMeshApi();
    const { user } = renderScreen();
    await nodeSection('Frankfurt');

    await user.click(screen.getByRole('switch', { name: 'Mesh on' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.calls(meshEndpoints.putMesh)).toHaveLength(1));
    expect(api.calls(meshEndpoints.putMesh)[0].sentBody).toEqual({
      enabled: false,
      hubId: FRANKFURT_ID,
      siteIds: [BERLIN_ID, MUNICH_ID],
      userIds: [ANN_ID],
      groupIds: [ENGINEERING_ID],
    });
    expect(
      await screen.findByText('Mesh saved. It is off: no gateway or device gets its tunnels.'),
    ).toBeInTheDocument();
    expect(await screen.findByText(/The mesh is off/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Frankfurt' })).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Mesh on' })).not.toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Hub' })).toHaveValue('Frankfurt');
  });

  it('shows the server’s refusal of the hub and of a site on those fields, and saves nothing', async () => {
    const api = fakeMeshApi();
    api.on(meshEndpoints.putMesh, () =>
      apiError('validation_failed', {
        details: [
          { path: 'body.hubId', message: 'validation.meshHub' },
          { path: 'body.siteIds.1', message: 'validation.meshSite' },
        ],
      }),
    );
    const { user } = renderScreen();
    await nodeSection('Frankfurt');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const hub = screen.getByRole('combobox', { name: 'Hub' });
    await waitFor(() =>
      expect(hub).toHaveAccessibleDescription(expect.stringContaining('Choose a cybernode as the hub.')),
    );
    expect(hub).toHaveFocus();
    expect(screen.getByRole('combobox', { name: 'Site gateways' })).toHaveAccessibleDescription(
      expect.stringContaining('Choose site gateways of this tenant.'),
    );
    expect(screen.queryByText(/Mesh saved/)).not.toBeInTheDocument();
  });

  it('says what keeps the mesh from being whole, naming the gateways and the network', async () => {
    fakeMeshApi({
      issues: [
        { code: 'not-enrolled', gateways: [{ id: MUNICH_ID, name: 'Munich shop' }], network: null },
        {
          code: 'conflict',
          gateways: [
            { id: BERLIN_ID, name: 'Berlin office' },
            { id: MUNICH_ID, name: 'Munich shop' },
          ],
          network: '192.168.1.0/24',
        },
        {
          code: 'unreachable',
          gateways: [
            { id: BERLIN_ID, name: 'Berlin office' },
            { id: MUNICH_ID, name: 'Munich shop' },
          ],
          network: null,
        },
      ],
    });
    renderScreen();

    const issues = await screen.findByRole('region', { name: 'To fix' });
    expect(within(issues).getAllByRole('alert')).toHaveLength(3);
    expect(within(issues).getByText('Not enrolled yet')).toBeInTheDocument();
    expect(
      within(issues).getByText(
        'Munich shop has not enrolled yet. It has no tunnel, so the mesh leaves it out until it enrols.',
      ),
    ).toBeInTheDocument();
    expect(within(issues).getByText('Network conflict: 192.168.1.0/24')).toBeInTheDocument();
    expect(
      within(issues).getByText(
        '192.168.1.0/24 is claimed by Berlin office and Munich shop. The mesh routes it to Berlin office; at Munich shop it stays out of reach until it gets an address range of its own.',
      ),
    ).toBeInTheDocument();
    expect(
      within(issues).getByText(
        /^Berlin office and Munich shop cannot reach each other: neither has a public endpoint/,
      ),
    ).toBeInTheDocument();
  });

  it('lets a role without gateways:update see the mesh but change nothing', async () => {
    const api = fakeMeshApi();
    renderScreen(makeSession({ role: 'auditor' }));
    await nodeSection('Frankfurt');

    expect(screen.getByText('Your role may view the mesh but not change it.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Mesh on' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Hub' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Site gateways' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Users' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Groups' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    // What the mesh holds still shows by name.
    expect(screen.getByRole('combobox', { name: 'Hub' })).toHaveValue('Frankfurt');
    expect(within(settingsForm()).getByText('ann@acme.example')).toBeInTheDocument();
    expect(api.calls(meshEndpoints.putMesh)).toEqual([]);
    expect(api.unhandled).toEqual([]);
  });

  it('says when the mesh could not be loaded and tries again', async () => {
    const api = fakeMeshApi();
    let loads = 0;
    api.on(meshEndpoints.getMesh, () => (++loads === 1 ? apiError('forbidden') : MESH_ON));
    const { user } = renderScreen();

    expect(await screen.findByText('Loading failed')).toBeInTheDocument();
    expect(screen.getByText('Your role does not allow this.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await nodeSection('Frankfurt')).toBeInTheDocument();
  });
});
