import {
  type DeploymentKeyInput,
  enrolmentEndpoints,
  type Session,
  type UserDevices,
  userEndpoints,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { ANN_USER, ahead } from '../testing/device-fixtures';
import { Component as DeviceAdd } from './device-add';

const BOB: UserDevices = {
  ...ANN_USER,
  id: '22222222-2222-4222-8222-222222222222',
  username: 'bob@acme.example',
  fullname: 'Bob Brown',
};
const LINK_TOKEN = `pel_${'Q7'.repeat(20)}`;
const LINK_URL = `http://localhost:3000/verify/wg/${LINK_TOKEN}`;
const KEY_TOKEN = `pdk_${'Zx'.repeat(20)}`;

/** The fake enrolment API: two end users, and links and keys created as the server would. */
function fakeEnrolmentApi() {
  return fakeApi()
    .on(enrolmentEndpoints.listUserDevices, ({ query }) => {
      const items = [ANN_USER, BOB].filter(
        (user) =>
          (!query.userId || user.id === query.userId) &&
          (!query.q || user.fullname.toLowerCase().includes(query.q.toLowerCase())),
      );
      return { items, total: items.length };
    })
    .on(enrolmentEndpoints.createUserLink, () => ({
      id: 'l-new',
      token: LINK_TOKEN,
      url: LINK_URL,
      expiresAt: ahead(168 * 3_600_000),
    }))
    .on(userEndpoints.listGroupOptions, () => [])
    .on(enrolmentEndpoints.createDeploymentKey, ({ body }) => ({
      key: {
        id: 'k-new',
        name: body.name,
        prefix: 'pdk_Zx',
        autoGroups: [],
        expiresAt: ahead(90 * 86_400_000),
        maxUses: null,
        uses: 0,
        revokedAt: null,
        lastUsedAt: null,
        createdAt: new Date().toISOString(),
      },
      token: KEY_TOKEN,
    }));
}

function renderAdd(session: Session = makeSession()) {
  return renderRoutes(
    [
      { path: '/devices/add', element: <DeviceAdd /> },
      { path: '/devices/list', element: <h1>All devices</h1> },
    ],
    { route: '/devices/add', session },
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('add a device', { timeout: 20_000 }, () => {
  it('picks an end user and creates their enrolment link, shown once with its token', async () => {
    const api = fakeEnrolmentApi();
    const { user } = renderAdd();
    expect(await screen.findByRole('heading', { level: 1, name: 'Add a device' })).toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create enrolment link' });
    expect(create).toBeDisabled();

    await user.type(screen.getByRole('combobox', { name: 'End user' }), 'bob');
    await user.click(
      await screen.findByRole('option', { name: 'Bob Brown (bob@acme.example)', hidden: true }),
    );
    expect(create).toBeEnabled();
    await user.click(create);

    const dialog = await screen.findByRole('dialog', { name: 'Send enrolment link' });
    expect(within(dialog).getByText(/Bob Brown opens the link on the device/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const created = await screen.findByRole('dialog', { name: 'Link created' });
    expect(within(created).getByText(LINK_URL)).toBeInTheDocument();
    expect(within(created).getByText(LINK_TOKEN)).toBeInTheDocument();
    const [call] = api.calls(enrolmentEndpoints.createUserLink);
    expect(call.params.id).toBe(BOB.id);
    expect(call.sentBody).toEqual({ kind: 'link', ttlHours: 168, sendEmail: false });
  });

  it('creates a deployment key and shows it once, with the install commands that carry it', async () => {
    const api = fakeEnrolmentApi();
    const { user } = renderAdd();
    await user.click(await screen.findByRole('button', { name: 'Create deployment key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add deployment key' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Intune – laptops');
    await user.click(within(dialog).getByRole('button', { name: 'Add key' }));

    const fresh = await screen.findByRole('region', { name: 'Key “Intune – laptops” created: copy it now' });
    expect(
      api.calls(enrolmentEndpoints.createDeploymentKey).map((c) => c.sentBody as DeploymentKeyInput),
    ).toEqual([{ name: 'Intune – laptops', autoGroupIds: [], expiresInDays: 90, maxUses: null }]);
    expect(within(fresh).getAllByText(KEY_TOKEN).length).toBeGreaterThan(0);
    expect(within(fresh).getByText(/carry the key “Intune – laptops”/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(fresh).getByRole('button', { name: 'I have stored it, hide the key' }));
    expect(screen.queryByText(KEY_TOKEN)).not.toBeInTheDocument();
  });

  it('points to the other ways: the deployment keys and adding a site gateway', async () => {
    fakeEnrolmentApi();
    renderAdd();
    expect(await screen.findByRole('link', { name: 'Manage deployment keys' })).toHaveAttribute(
      'href',
      '/users/rmm-deployment',
    );
    expect(screen.getByRole('link', { name: 'Add a site gateway' })).toHaveAttribute(
      'href',
      '/devices/new/add',
    );
  });

  it('explains, without the actions, to a role that cannot add devices', async () => {
    fakeEnrolmentApi();
    renderAdd(makeSession({ role: 'auditor' }));
    expect(await screen.findByText(/Your role cannot add devices/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create enrolment link' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create deployment key' })).not.toBeInTheDocument();
  });
});
