import { privateAccessEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { fakePrivateAccessApi } from '../testing/fake-private-access';
import { BOB_ID, CONTRACTORS_ID, FILES, MUNICH_ID, TILL } from '../testing/fixtures';
import { Component as ZtnaFirewall } from './ztna-firewall';

function renderScreen() {
  return renderWithProviders(<ZtnaFirewall />, { route: '/devices/ztna-firewall', session: makeSession() });
}

type User = ReturnType<typeof renderScreen>['user'];

/** Picks `option` of the Mantine select labelled `label` (its dropdown counts as hidden in happy-dom). */
async function choose(user: User, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

/** The row of a rule, found by its name (the row header). */
async function rowOf(name: string): Promise<HTMLElement> {
  return (await screen.findByRole('rowheader', { name })).closest('tr') as HTMLElement;
}

/** Opens the add form and fills name, gateway and destination. */
async function openNewRule(user: User) {
  await user.click(screen.getByRole('button', { name: 'Add rule' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add a ZTNA rule' });
  await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Printers');
  await choose(user, 'Site gateway', 'Munich shop');
  await user.type(within(dialog).getByRole('textbox', { name: 'Destination' }), '10.20.0.0/24');
  return dialog;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

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

    await user.type(within(dialog).getByRole('combobox', { name: 'Users' }), 'Bob');
    await user.click(
      await screen.findByRole('option', { name: 'Bob Baker (bob@acme.example)', hidden: true }),
    );
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
