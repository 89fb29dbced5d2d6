import { privateAccessEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError } from '../../../testing/fake-api';
import { fakePrivateAccessApi } from '../testing/fake-private-access';
import { BOB_ID, CONTRACTORS_ID, FILES, MUNICH_ID, TILL } from '../testing/fixtures';
import {
  choose,
  isolateScreenTests,
  openNewEntry,
  pickUser,
  rowOf,
  screenRenderer,
  type User,
} from '../testing/screen-helpers';
import { Component as ZtnaFirewall } from './ztna-firewall';

const renderScreen = screenRenderer(ZtnaFirewall, '/devices/ztna-firewall');

/** Opens the add form and fills name, gateway and destination. */
function openNewRule(user: User) {
  return openNewEntry(user, {
    addButton: 'Add rule',
    dialogTitle: 'Add a ZTNA rule',
    name: 'Printers',
    gateway: 'Munich shop',
    target: { label: 'Destination', value: '10.20.0.0/24' },
  });
}

isolateScreenTests();

describe('ZTNA firewall screen', { timeout: 20_000 }, () => {
  it('lists the rules with destination, protocol and ports (or all ports) and who may reach them', async () => {
    const api = fakePrivateAccessApi({ rules: [FILES, TILL] });
    renderScreen();

    const files = await rowOf('File servers');
    expect(within(files).getByText('192.168.1.0/24')).toBeInTheDocument();
    expect(within(files).getByText('TCP')).toBeInTheDocument();
    expect(within(files).getByText('445')).toBeInTheDocument();
    const groups = within(files).getByRole('list', { name: 'Groups who may reach File servers' });
    expect(within(groups).getByText('Engineering')).toBeInTheDocument();

    const till = await rowOf('Till');
    expect(within(till).getByText('Munich shop')).toBeInTheDocument();
    expect(within(till).getByText('Any')).toBeInTheDocument();
    expect(within(till).getByText('all ports')).toBeInTheDocument();
    const users = within(till).getByRole('list', { name: 'Users who may reach Till' });
    expect(within(users).getByText('bob@acme.example')).toBeInTheDocument();

    expect(screen.getByRole('table', { name: '2 rules' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Destination' })).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('invites to add the first rule when there is none', async () => {
    fakePrivateAccessApi();
    renderScreen();
    expect(await screen.findByText(/No ZTNA rules yet/)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Add rule' })).toHaveLength(1);
  });

  it('turns the ports off with protocol any and sends no ports', async () => {
    const api = fakePrivateAccessApi({ rules: [FILES] });
    const { user } = renderScreen();
    await rowOf('File servers');
    const dialog = await openNewRule(user);

    const ports = within(dialog).getByRole('textbox', { name: 'Ports' });
    expect(ports).toBeEnabled();
    await user.type(ports, '9100');
    await user.click(within(dialog).getByRole('radio', { name: 'Any' }));
    expect(ports).toBeDisabled();
    expect(ports).toHaveValue('');
    expect(within(dialog).getByText('With any protocol, every port is reached.')).toBeInTheDocument();

    await pickUser(user, dialog, 'Bob', 'Bob Baker (bob@acme.example)');
    await choose(user, 'Groups', 'Contractors');
    await user.click(within(dialog).getByRole('button', { name: 'Add rule' }));

    await waitFor(() => expect(api.calls(privateAccessEndpoints.createZtnaRule)).toHaveLength(1));
    expect(api.calls(privateAccessEndpoints.createZtnaRule)[0].sentBody).toEqual({
      name: 'Printers',
      gatewayId: MUNICH_ID,
      destination: '10.20.0.0/24',
      protocol: 'any',
      ports: null,
      userIds: [BOB_ID],
      groupIds: [CONTRACTORS_ID],
      enabled: true,
    });
    expect(await screen.findByText('Rule Printers added.')).toBeInTheDocument();
  });

  it('sends empty ports as every port, and checks a port list on the client', async () => {
    const api = fakePrivateAccessApi({ rules: [FILES] });
    const { user } = renderScreen();
    await rowOf('File servers');
    const dialog = await openNewRule(user);

    const ports = within(dialog).getByRole('textbox', { name: 'Ports' });
    await user.type(ports, '70000');
    await user.click(within(dialog).getByRole('button', { name: 'Add rule' }));
    expect(ports).toHaveAccessibleDescription(
      expect.stringContaining('Enter ports 1–65535 or ranges a-b, separated by commas.'),
    );
    expect(api.calls(privateAccessEndpoints.createZtnaRule)).toEqual([]);

    await user.clear(ports);
    await user.click(within(dialog).getByRole('button', { name: 'Add rule' }));
    await waitFor(() => expect(api.calls(privateAccessEndpoints.createZtnaRule)).toHaveLength(1));
    expect(api.calls(privateAccessEndpoints.createZtnaRule)[0].sentBody).toMatchObject({
      protocol: 'tcp',
      ports: null,
      userIds: [],
      groupIds: [],
    });
  });

  it('shows the server’s refusal of the ports under the ports', async () => {
    const api = fakePrivateAccessApi({ rules: [FILES] });
    api.on(privateAccessEndpoints.createZtnaRule, () =>
      apiError('validation_failed', {
        details: [{ path: 'body.ports', message: 'validation.portsNeedProtocol' }],
      }),
    );
    const { user } = renderScreen();
    await rowOf('File servers');
    const dialog = await openNewRule(user);
    await user.type(within(dialog).getByRole('textbox', { name: 'Ports' }), '53');
    await user.click(within(dialog).getByRole('button', { name: 'Add rule' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: 'Ports' })).toHaveAccessibleDescription(
        expect.stringContaining('Ports need TCP or UDP: with any protocol, every port is reached.'),
      ),
    );
  });

  it('switches a rule off at once and deletes one after a confirmation', async () => {
    const api = fakePrivateAccessApi({ rules: [FILES, TILL] });
    const { user } = renderScreen();
    const till = await rowOf('Till');
    await user.click(within(till).getByRole('switch', { name: 'Enabled: Till' }));
    await waitFor(() => expect(api.calls(privateAccessEndpoints.updateZtnaRule)).toHaveLength(1));
    expect(api.calls(privateAccessEndpoints.updateZtnaRule)[0].sentBody).toEqual({
      name: 'Till',
      gatewayId: MUNICH_ID,
      destination: '10.20.0.9',
      protocol: 'any',
      ports: null,
      userIds: [BOB_ID],
      groupIds: [],
      enabled: false,
    });
    expect(await screen.findByText('Rule Till disabled.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete File servers' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete File servers?' });
    expect(api.calls(privateAccessEndpoints.deleteZtnaRule)).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Delete rule' }));
    await waitFor(() => expect(api.calls(privateAccessEndpoints.deleteZtnaRule)).toHaveLength(1));
    expect(await screen.findByText('Rule File servers deleted.')).toBeInTheDocument();
  });
});
