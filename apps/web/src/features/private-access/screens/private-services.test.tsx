import { privateAccessEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, type FakeApi } from '../../../testing/fake-api';
import { makeSession } from '../../../testing/render';
import { fakePrivateAccessApi } from '../testing/fake-private-access';
import { ANN_ID, BERLIN_ID, ENGINEERING_ID, INTRANET, MEDIA } from '../testing/fixtures';
import {
  choose,
  isolateScreenTests,
  openNewEntry,
  pickUser,
  rowOf,
  screenRenderer,
  type User,
} from '../testing/screen-helpers';
import { Component as PrivateServices } from './private-services';

const renderScreen = screenRenderer(PrivateServices, '/devices/spa/service');

/** What the screen wrote: publishes, saves and deletes. */
const writes = (api: FakeApi) => api.requests.filter((request) => request.method !== 'GET');

/** Opens the publish form and fills every field but the users and groups. */
async function fillNewService(user: User) {
  const dialog = await openNewEntry(user, {
    addButton: 'Publish a service',
    dialogTitle: 'Publish a service',
    name: 'Wiki',
    gateway: 'Berlin office',
    target: { label: 'Internal address', value: '192.168.1.30' },
  });
  await user.click(within(dialog).getByRole('radio', { name: 'UDP' }));
  await user.type(within(dialog).getByRole('textbox', { name: 'Ports' }), '8000-8080');
  return dialog;
}

isolateScreenTests();

describe('private services screen', { timeout: 20_000 }, () => {
  it('lists the services with gateway, address, protocol and ports, who may reach them and their state', async () => {
    const api = fakePrivateAccessApi({ services: [INTRANET, MEDIA] });
    renderScreen();

    const intranet = await rowOf('Intranet');
    expect(within(intranet).getByText('Berlin office')).toBeInTheDocument();
    expect(within(intranet).getByText('192.168.1.20')).toBeInTheDocument();
    expect(within(intranet).getByText('TCP')).toBeInTheDocument();
    expect(within(intranet).getByText('443')).toBeInTheDocument();
    const users = within(intranet).getByRole('list', { name: 'Users who may reach Intranet' });
    expect(within(users).getByText('ann@acme.example')).toBeInTheDocument();
    const groups = within(intranet).getByRole('list', { name: 'Groups who may reach Intranet' });
    expect(within(groups).getByText('Engineering')).toBeInTheDocument();
    expect(within(intranet).getByRole('switch', { name: 'Enabled: Intranet' })).toBeChecked();

    const media = await rowOf('Media server');
    expect(within(media).getByText('UDP')).toBeInTheDocument();
    expect(within(media).getByText('8000-8080')).toBeInTheDocument();
    expect(within(media).getByText('Nobody yet')).toBeInTheDocument();
    expect(within(media).getByRole('switch', { name: 'Enabled: Media server' })).not.toBeChecked();

    expect(screen.getByRole('table', { name: '2 published services' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Name',
      'Site gateway',
      'Internal address',
      'Protocol and ports',
      'Who may reach it',
      'Enabled',
      'Actions',
    ]);
    expect(screen.getByText(/The host is then guarded at the site gateway/)).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('invites to publish the first service when there is none', async () => {
    const api = fakePrivateAccessApi();
    const { user } = renderScreen();
    expect(await screen.findByText(/No services published yet/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const buttons = screen.getAllByRole('button', { name: 'Publish a service' });
    expect(buttons).toHaveLength(1);
    await user.click(buttons[0]);
    expect(await screen.findByRole('dialog', { name: 'Publish a service' })).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('publishes a service with the users and groups picked, after checking the form on the client', async () => {
    const api = fakePrivateAccessApi({ services: [INTRANET] });
    const { user } = renderScreen();
    await rowOf('Intranet');

    await user.click(screen.getByRole('button', { name: 'Publish a service' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish a service' });
    await user.click(within(dialog).getByRole('button', { name: 'Publish service' }));
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
      'This field is required.',
    );
    expect(within(dialog).getByRole('combobox', { name: 'Site gateway' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await fillNewService(user);
    const form = screen.getByRole('dialog', { name: 'Publish a service' });
    // A retired site gateway is not offered.
    await user.click(within(form).getByRole('combobox', { name: 'Site gateway' }));
    expect(screen.queryByRole('option', { name: 'Old warehouse', hidden: true })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');

    await pickUser(user, form, 'Ann', 'Ann Archer (ann@acme.example)');
    await choose(user, 'Groups', 'Engineering');
    await user.click(within(form).getByRole('button', { name: 'Publish service' }));

    await waitFor(() => expect(api.calls(privateAccessEndpoints.createPrivateService)).toHaveLength(1));
    expect(api.calls(privateAccessEndpoints.createPrivateService)[0].sentBody).toEqual({
      name: 'Wiki',
      gatewayId: BERLIN_ID,
      address: '192.168.1.30',
      protocol: 'udp',
      ports: '8000-8080',
      userIds: [ANN_ID],
      groupIds: [ENGINEERING_ID],
      enabled: true,
    });
    expect(await screen.findByText('Service Wiki published.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls(privateAccessEndpoints.listPrivateServices).length).toBeGreaterThan(1);
  });

  it('shows the server’s refusal under the fields it names', async () => {
    const api = fakePrivateAccessApi({ services: [INTRANET] });
    api.on(privateAccessEndpoints.createPrivateService, () =>
      apiError('validation_failed', {
        details: [
          { path: 'body.address', message: 'validation.forwardOutsideLan' },
          { path: 'body.name', message: 'validation.nameTaken' },
          { path: 'body.userIds.0', message: 'validation.unknownUser' },
        ],
      }),
    );
    const { user } = renderScreen();
    await rowOf('Intranet');
    const dialog = await fillNewService(user);
    await pickUser(user, dialog, 'Ann', 'Ann Archer (ann@acme.example)');
    await user.click(within(dialog).getByRole('button', { name: 'Publish service' }));

    const address = within(dialog).getByRole('textbox', { name: 'Internal address' });
    await waitFor(() =>
      expect(address).toHaveAccessibleDescription(
        expect.stringContaining('The internal host must be an address of a LAN or VLAN network.'),
      ),
    );
    expect(address).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
      'This name is already taken.',
    );
    expect(within(dialog).getByRole('combobox', { name: 'Users' })).toHaveAccessibleDescription(
      'A selected user does not exist in this tenant.',
    );
    // The first field at fault has the focus; the dialog stays open and nothing is toasted.
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveFocus();
    expect(screen.getByRole('dialog', { name: 'Publish a service' })).toBeInTheDocument();
    expect(screen.queryByText('Service Wiki published.')).not.toBeInTheDocument();
  });

  it('saves the enabled switch at once with the whole service', async () => {
    const api = fakePrivateAccessApi({ services: [INTRANET, MEDIA] });
    const { user } = renderScreen();
    const media = await rowOf('Media server');
    await user.click(within(media).getByRole('switch', { name: 'Enabled: Media server' }));

    await waitFor(() => expect(api.calls(privateAccessEndpoints.updatePrivateService)).toHaveLength(1));
    const [put] = api.calls(privateAccessEndpoints.updatePrivateService);
    expect(put.params.id).toBe(MEDIA.id);
    expect(put.sentBody).toEqual({
      name: 'Media server',
      gatewayId: MEDIA.gatewayId,
      address: '10.20.0.5',
      protocol: 'udp',
      ports: '8000-8080',
      userIds: [],
      groupIds: [],
      enabled: true,
    });
    expect(await screen.findByText('Service Media server enabled.')).toBeInTheDocument();
  });

  it('puts the switch back and says why when the server refuses it', async () => {
    const api = fakePrivateAccessApi({ services: [INTRANET] });
    api.on(privateAccessEndpoints.updatePrivateService, () =>
      apiError('validation_failed', {
        details: [{ path: 'body.gatewayId', message: 'validation.siteGateway' }],
      }),
    );
    const { user } = renderScreen();
    const row = await rowOf('Intranet');
    const toggle = within(row).getByRole('switch', { name: 'Enabled: Intranet' });
    await user.click(toggle);
    expect(await screen.findByText('Choose a site gateway of this tenant.')).toBeInTheDocument();
    await waitFor(() => expect(toggle).toBeChecked());
    expect(toggle).toBeEnabled();
  });

  it('edits a service from its values and saves it with a PUT', async () => {
    const api = fakePrivateAccessApi({ services: [INTRANET] });
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Edit Intranet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Intranet' });
    expect(within(dialog).getByRole('textbox', { name: 'Internal address' })).toHaveValue('192.168.1.20');
    expect(within(dialog).getByRole('combobox', { name: 'Site gateway' })).toHaveValue('Berlin office');
    expect(within(dialog).getByText('ann@acme.example')).toBeInTheDocument();
    const ports = within(dialog).getByRole('textbox', { name: 'Ports' });
    await user.clear(ports);
    await user.type(ports, '80,443');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.calls(privateAccessEndpoints.updatePrivateService)).toHaveLength(1));
    expect(api.calls(privateAccessEndpoints.updatePrivateService)[0].sentBody).toMatchObject({
      ports: '80,443',
      userIds: [ANN_ID],
      groupIds: [ENGINEERING_ID],
    });
    expect(await screen.findByText('Changes to Intranet saved.')).toBeInTheDocument();
  });

  it('deletes a service only after a confirmation', async () => {
    const api = fakePrivateAccessApi({ services: [INTRANET, MEDIA] });
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Delete Intranet' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Intranet?' });
    expect(
      within(confirm).getByText(/stop reaching 192\.168\.1\.20 \(443\) through Berlin office/),
    ).toBeInTheDocument();
    expect(writes(api)).toEqual([]);

    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(writes(api)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Intranet' }));
    const again = await screen.findByRole('dialog', { name: 'Delete Intranet?' });
    await user.click(within(again).getByRole('button', { name: 'Delete service' }));
    await waitFor(() =>
      expect(api.calls(privateAccessEndpoints.deletePrivateService).map((call) => call.params.id)).toEqual([
        INTRANET.id,
      ]),
    );
    expect(await screen.findByText('Service Intranet deleted.')).toBeInTheDocument();
  });

  it('offers no changes to a role that can only look', async () => {
    const api = fakePrivateAccessApi({ services: [INTRANET] });
    renderScreen(makeSession({ role: 'auditor' }));
    const row = await rowOf('Intranet');
    expect(within(row).getByRole('switch', { name: 'Enabled: Intranet' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Publish a service' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Intranet' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Intranet' })).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });
});
