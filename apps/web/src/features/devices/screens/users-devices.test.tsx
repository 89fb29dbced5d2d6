import { enrolmentEndpoints, type Session, type UserDevices } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as AgentlessScreen } from './agentless';
import { Component as UsersDevices } from './users-devices';

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const ahead = (ms: number) => new Date(Date.now() + ms).toISOString();

const ANN: UserDevices = {
  id: '11111111-1111-4111-8111-111111111111',
  username: 'ann@acme.example',
  fullname: 'Ann Archer',
  connstatus: 'connected',
  state: 'enrolled',
  link: { id: 'l-1', kind: 'link', prefix: 'pel_Ab3x', expiresAt: ago(HOUR), usedAt: ago(3 * 24 * HOUR) },
  devices: [
    {
      id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
      name: 'ANN-LAPTOP',
      os: 'windows',
      userId: '11111111-1111-4111-8111-111111111111',
      username: 'ann@acme.example',
      connstatus: 'disconnected',
      enrolledVia: 'rmm',
      enrolledAt: ago(3 * 24 * HOUR),
      lastSeenAt: ago(5 * 60_000),
    },
  ],
};
const BEN: UserDevices = {
  id: '22222222-2222-4222-8222-222222222222',
  username: 'ben@acme.example',
  fullname: 'Ben Baker',
  connstatus: 'never',
  state: 'pending',
  link: { id: 'l-2', kind: 'link', prefix: 'pel_Zz9q', expiresAt: ahead(6 * 24 * HOUR + HOUR), usedAt: null },
  devices: [],
};
const CARA: UserDevices = {
  id: '33333333-3333-4333-8333-333333333333',
  username: 'cara@acme.example',
  fullname: 'Cara Cole',
  connstatus: 'never',
  state: 'not-invited',
  link: null,
  devices: [],
};

const TOKEN = `pel_${'Q7'.repeat(20)}`;
const LINK_URL = `http://localhost:3000/verify/wg/${TOKEN}`;

/** The fake enrolment API over a fixed list of acme's; the link and device calls answer as the server would. */
function fakeEnrolmentApi(rows: UserDevices[] = [ANN, BEN, CARA]) {
  const api = fakeApi()
    .on(enrolmentEndpoints.listUserDevices, ({ params, query: { q, filter } }) => {
      const items = rows.filter(
        (row) =>
          params.tenant === 'acme' &&
          (!q || row.username.includes(q)) &&
          (filter !== 'pending' || row.state === 'pending') &&
          (filter !== 'with-devices' || row.devices.length > 0),
      );
      return { items, total: items.length };
    })
    .on(enrolmentEndpoints.createUserLink, () => ({
      id: 'l-new',
      token: TOKEN,
      url: LINK_URL,
      expiresAt: ahead(720 * HOUR),
    }))
    .on(enrolmentEndpoints.revokeUserLink, () => ({ revoked: 1 }))
    .on(enrolmentEndpoints.deleteDevices, ({ body }) => ({ deleted: body.ids.length }));
  return {
    api,
    lists: () => api.calls(enrolmentEndpoints.listUserDevices),
    /** The link requests for one user. */
    linksCreated: (userId: string) =>
      api.calls(enrolmentEndpoints.createUserLink).filter((call) => call.params.id === userId),
    linksRevoked: (userId: string) =>
      api.calls(enrolmentEndpoints.revokeUserLink).filter((call) => call.params.id === userId),
    deletes: () => api.calls(enrolmentEndpoints.deleteDevices),
  };
}

function renderScreen(session: Session = makeSession(), route = '/users/users-devices') {
  return renderRoutes(
    [
      { path: '/users/users-devices', element: <UsersDevices /> },
      { path: '/users/agentless', element: <AgentlessScreen /> },
      { path: '/users/:id', element: <p>user detail</p> },
    ],
    { route, session },
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('users and devices', () => {
  it('shows each user with the enrolment state, the connection status as text and the devices', async () => {
    const api = fakeEnrolmentApi();
    renderScreen();
    const ann = (await screen.findByRole('link', { name: 'Ann Archer' })).closest('tr')!;
    expect(within(ann).getByText('Enrolled')).toBeInTheDocument();
    expect(within(ann).getByText('Connected')).toBeInTheDocument();
    const devices = within(ann).getByRole('list', { name: 'Devices of Ann Archer' });
    expect(within(devices).getByText('ANN-LAPTOP')).toBeInTheDocument();
    expect(within(devices).getByText('Windows')).toBeInTheDocument();
    expect(within(devices).getByText('Disconnected')).toBeInTheDocument();
    expect(devices).toHaveTextContent('via RMM deployment');
    expect(devices).toHaveTextContent('enrolled 3 days ago');
    expect(devices).toHaveTextContent('last seen 5 minutes ago');

    const ben = screen.getByRole('link', { name: 'Ben Baker' }).closest('tr')!;
    expect(within(ben).getByText('Link pending')).toBeInTheDocument();
    expect(within(ben).getByText('Never connected')).toBeInTheDocument();
    expect(ben).toHaveTextContent('pel_Zz9q… expires in 6 days');
    expect(within(ben).getByText('No devices')).toBeInTheDocument();
    expect(within(ben).getByRole('button', { name: 'Revoke the link of Ben Baker' })).toBeInTheDocument();

    const cara = screen.getByRole('link', { name: 'Cara Cole' }).closest('tr')!;
    expect(within(cara).getByText('Not invited')).toBeInTheDocument();
    expect(within(cara).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(screen.getByText('3 users')).toBeInTheDocument();
    expect(Object.fromEntries(api.lists()[0].url.searchParams)).toEqual({
      limit: '25',
      offset: '0',
    });
    expect(api.lists()[0].params.tenant).toBe('acme');
    expect(api.api.unhandled).toEqual([]);
  });

  it('sends the filter and the search to the server, and keeps them in the address', async () => {
    const api = fakeEnrolmentApi();
    const { user, router } = renderScreen();
    await screen.findByRole('link', { name: 'Ann Archer' });

    await user.click(screen.getByRole('radio', { name: 'Pending link' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Ann Archer' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Ben Baker' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?filter=pending');

    await user.click(screen.getByRole('radio', { name: 'All' }));
    // Typed without pauses between keys (as a person types, however busy the machine running the test is): the
    // debounce then sees one burst.
    await userEvent.setup({ delay: null }).type(screen.getByRole('searchbox', { name: 'Search' }), 'cara');
    await waitFor(() => expect(router.state.location.search).toBe('?q=cara'), { timeout: 3000 });
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Ann Archer' })).not.toBeInTheDocument(), {
      timeout: 3000,
    });
    expect(screen.getByRole('link', { name: 'Cara Cole' })).toBeInTheDocument();

    const queries = api.lists().map((call) => Object.fromEntries(call.url.searchParams));
    expect(queries).toContainEqual({ limit: '25', offset: '0', filter: 'pending' });
    expect(queries.at(-1)).toEqual({ limit: '25', offset: '0', q: 'cara' });
    // The debounce sends one search, not one per key.
    expect(queries.filter((q) => q.q !== undefined)).toHaveLength(1);
    expect(api.api.unhandled).toEqual([]);
  });

  it('creates a link, shows the link and token once with working copy buttons, then forgets them', async () => {
    const api = fakeEnrolmentApi();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Send enrolment link to Cara Cole' }));
    const form = await screen.findByRole('dialog', { name: 'Send enrolment link' });
    await user.click(within(form).getByRole('radio', { name: '30 days' }));
    await user.click(
      within(form).getByRole('checkbox', { name: 'Also e-mail the link to cara@acme.example' }),
    );
    await user.click(within(form).getByRole('button', { name: 'Create link' }));

    const created = await screen.findByRole('dialog', { name: 'Link created' });
    expect(api.linksCreated(CARA.id)[0].sentBody).toEqual({
      kind: 'link',
      ttlHours: 720,
      sendEmail: true,
    });
    expect(within(created).getByText(/only time the link and its token are shown/)).toBeInTheDocument();
    expect(within(created).getByText('The link was also e-mailed to cara@acme.example.')).toBeInTheDocument();
    expect(within(created).getByText(LINK_URL)).toBeInTheDocument();
    expect(within(created).getByText(TOKEN)).toBeInTheDocument();
    // The link as a QR code, to open it on the phone.
    const qr = await within(created).findByRole('img', { name: /QR code of the enrolment link/ });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);

    await user.click(within(created).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(TOKEN);
    expect(within(created).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await user.click(within(created).getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(LINK_URL);

    await user.click(within(created).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.body.textContent).not.toContain(TOKEN);
    // Opening it again starts afresh: a form, no token.
    await user.click(screen.getByRole('button', { name: 'Send enrolment link to Cara Cole' }));
    const again = await screen.findByRole('dialog', { name: 'Send enrolment link' });
    expect(within(again).getByRole('radio', { name: '7 days' })).toBeChecked();
    expect(document.body.textContent).not.toContain(TOKEN);
    expect(api.api.calls(enrolmentEndpoints.createUserLink)).toHaveLength(1);
    expect(api.api.unhandled).toEqual([]);
  }, 20_000);

  it('revokes a pending link and removes a device only after confirmation', async () => {
    const api = fakeEnrolmentApi();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Revoke the link of Ben Baker' }));
    const revoke = await screen.findByRole('dialog', { name: 'Revoke link?' });
    expect(api.api.requests.some((request) => request.method === 'DELETE')).toBe(false);
    await user.click(within(revoke).getByRole('button', { name: 'Revoke link' }));
    await waitFor(() => expect(api.linksRevoked(BEN.id)).toHaveLength(1));
    expect(await screen.findByText('Link revoked.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove device ANN-LAPTOP' }));
    const remove = await screen.findByRole('dialog', { name: 'Remove device?' });
    await user.click(within(remove).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.deletes()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Remove device ANN-LAPTOP' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove device?' })).getByRole('button', {
        name: 'Remove device',
      }),
    );
    await waitFor(() => expect(api.deletes()).toHaveLength(1));
    expect(api.deletes()[0].sentBody).toEqual({ ids: [ANN.devices[0].id] });
    expect(api.api.calls(enrolmentEndpoints.revokeUserLink)).toHaveLength(1);
    expect(api.api.unhandled).toEqual([]);
  }, 15_000);

  it('hides the link and device actions from a read-only role', async () => {
    const api = fakeEnrolmentApi();
    renderScreen(makeSession({ role: 'auditor' }));
    await screen.findByRole('link', { name: 'Ann Archer' });
    expect(screen.queryByRole('button', { name: /Send enrolment link/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove device/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(api.api.unhandled).toEqual([]);
  });

  it('says when no user matches', async () => {
    const api = fakeEnrolmentApi([]);
    renderScreen(makeSession(), '/users/users-devices?filter=with-devices');
    expect(await screen.findByText('No users match.')).toBeInTheDocument();
    expect(api.lists()[0].url.searchParams.get('filter')).toBe('with-devices');
    expect(api.api.unhandled).toEqual([]);
  });
});

describe('agentless access', () => {
  it('lists agentless state only and sends agentless links', async () => {
    const api = fakeEnrolmentApi();
    const { user } = renderScreen(makeSession(), '/users/agentless');
    expect(await screen.findByRole('heading', { name: 'How agentless access works' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Send agentless link to Cara Cole' }));
    const form = await screen.findByRole('dialog', { name: 'Send agentless access link' });
    await user.click(within(form).getByRole('button', { name: 'Create link' }));
    await screen.findByRole('dialog', { name: 'Link created' });
    expect(api.lists()[0].url.searchParams.get('method')).toBe('agentless');
    expect(api.linksCreated(CARA.id)[0].sentBody).toEqual({
      kind: 'agentless',
      ttlHours: 168,
      sendEmail: false,
    });
    expect(api.api.unhandled).toEqual([]);
  }, 15_000);
});
