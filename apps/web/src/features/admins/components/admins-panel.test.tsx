import { type Admin, adminEndpoints, roleEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeApi, type FakeReply, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { AdminsPanel } from './admins-panel';

const OWNER_ID = '11111111-1111-4111-8111-111111111111';
const HELPDESK_ID = '22222222-2222-4222-8222-222222222222';
const CUSTOM_ROLE_ID = '33333333-3333-4333-8333-333333333333';

function makeAdmin(overrides: Partial<Admin> & Pick<Admin, 'id' | 'username'>): Admin {
  return {
    firstname: 'Ann',
    lastname: 'Admin',
    role: 'admin',
    customRoleId: null,
    status: 'active',
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const OWNER = makeAdmin({ id: OWNER_ID, username: 'admin@acme.example', firstname: 'Ada', role: 'owner' });
const HELPDESK = makeAdmin({
  id: HELPDESK_ID,
  username: 'help@acme.example',
  firstname: 'Hal',
  role: 'helpdesk',
});
const VIEWER = makeAdmin({
  id: '44444444-4444-4444-8444-444444444444',
  username: 'viewer@acme.example',
  firstname: 'Vic',
  role: 'custom',
  customRoleId: CUSTOM_ROLE_ID,
  status: 'invited',
});

const VIEWER_ROLE = {
  id: CUSTOM_ROLE_ID,
  name: 'Viewer',
  description: '',
  permissions: ['users:view' as const],
  assigned: 1,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

/** A fake administrators API that keeps its list; `refuse` answers every write (invite, suspend, remove). */
function fakeAdminsApi(initial: Admin[], refuse?: () => FakeReply) {
  let admins = [...initial];
  const find = (id: string) => admins.find((a) => a.id === id) ?? apiError('not_found');
  return fakeApi()
    .on(roleEndpoints.listRoles, () => ({ builtIn: [], custom: [VIEWER_ROLE] }))
    .on(adminEndpoints.listAdmins, ({ query }) => {
      const q = query.q?.toLowerCase();
      const items = q ? admins.filter((a) => a.username.includes(q)) : admins;
      return { items, total: items.length };
    })
    .on(adminEndpoints.inviteAdmin, ({ body }) => {
      if (refuse) return refuse();
      const created = makeAdmin({
        id: '99999999-9999-4999-8999-999999999999',
        username: body.email,
        firstname: body.firstname,
        lastname: body.lastname,
        role: body.role ?? 'custom',
        customRoleId: body.customRoleId,
        status: 'invited',
      });
      admins = [...admins, created];
      return created;
    })
    .on(adminEndpoints.suspendAdmin, ({ params, body }) => {
      if (refuse) return refuse();
      admins = admins.map((a) =>
        a.id === params.id ? { ...a, status: body.suspended ? 'suspended' : 'active' } : a,
      );
      return find(params.id);
    })
    .on(adminEndpoints.removeAdmin, ({ params }) => {
      if (refuse) return refuse();
      admins = admins.filter((a) => a.id !== params.id);
      return { deleted: true as const };
    });
}

/** What a request changed: invitations, suspensions and removals. */
const changes = (api: FakeApi) => api.requests.filter((s) => s.method !== 'GET');

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('administrators panel', () => {
  it('lists administrators with name, e-mail, translated role and status', async () => {
    const api = fakeAdminsApi([OWNER, HELPDESK, VIEWER]);
    renderWithProviders(<AdminsPanel />, { session: makeSession() });
    expect(screen.getByRole('heading', { level: 2, name: 'Administrators' })).toBeInTheDocument();
    const owner = (await screen.findByText('admin@acme.example')).closest('tr')!;
    expect(within(owner).getByText('Ada Admin')).toBeInTheDocument();
    expect(within(owner).getByText('Owner')).toBeInTheDocument();
    expect(within(owner).getByText('Active')).toBeInTheDocument();
    const viewer = screen.getByText('viewer@acme.example').closest('tr')!;
    expect(await within(viewer).findByText('Custom role: Viewer')).toBeInTheDocument();
    expect(within(viewer).getByText('Invited')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('hides invite, suspend and remove from a role without those permissions', async () => {
    fakeAdminsApi([OWNER, HELPDESK]);
    renderWithProviders(<AdminsPanel />, { session: makeSession({ role: 'auditor' }) });
    await screen.findByText('help@acme.example');
    expect(screen.queryByRole('button', { name: 'Invite administrator' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Suspend / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove / })).not.toBeInTheDocument();
  });

  it('invites with exactly one of role and customRoleId, and confirms with a toast', async () => {
    const api = fakeAdminsApi([OWNER]);
    const { user } = renderWithProviders(<AdminsPanel />, { session: makeSession() });
    await screen.findByText('admin@acme.example');

    await user.click(screen.getByRole('button', { name: 'Invite administrator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite administrator' });
    // Nothing chosen: the form says what is missing and sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Choose a built-in role or a custom role.')).toBeInTheDocument();
    expect(changes(api)).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /E-mail/ }), 'new.admin@acme.example');
    await user.type(within(dialog).getByRole('textbox', { name: /First name/ }), 'Nia');
    await user.type(within(dialog).getByRole('textbox', { name: /Last name/ }), 'New');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Role/ }), 'role:helpdesk');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByText('Invitation sent to new.admin@acme.example.')).toBeInTheDocument();
    expect(changes(api)).toHaveLength(1);
    const [invite] = api.calls(adminEndpoints.inviteAdmin);
    expect(invite.params).toEqual({ tenant: 'acme' });
    expect(invite.sentBody).toEqual({
      email: 'new.admin@acme.example',
      firstname: 'Nia',
      lastname: 'New',
      role: 'helpdesk',
      customRoleId: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('new.admin@acme.example')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  }, 20_000);

  it('shows a taken e-mail on the field', async () => {
    fakeAdminsApi([OWNER], () =>
      apiError('user_exists', {
        message: 'Refused.',
        details: [{ path: 'body.email', message: 'validation.emailTaken' }],
      }),
    );
    const { user } = renderWithProviders(<AdminsPanel />, { session: makeSession() });
    await screen.findByText('admin@acme.example');
    await user.click(screen.getByRole('button', { name: 'Invite administrator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite administrator' });
    await user.type(within(dialog).getByRole('textbox', { name: /E-mail/ }), 'admin@acme.example');
    await user.type(within(dialog).getByRole('textbox', { name: /First name/ }), 'Ada');
    await user.type(within(dialog).getByRole('textbox', { name: /Last name/ }), 'Again');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Role/ }), 'role:admin');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(
      await within(dialog).findByText('An account with this e-mail already exists.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /E-mail/ })).toHaveAttribute('aria-invalid', 'true');
  }, 20_000);

  it('asks before suspending, then sends {suspended: true}', async () => {
    const api = fakeAdminsApi([OWNER, HELPDESK]);
    const { user } = renderWithProviders(<AdminsPanel />, { session: makeSession() });
    await user.click(await screen.findByRole('button', { name: 'Suspend help@acme.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend administrator?' });
    expect(within(dialog).getByText(/signed out at once/)).toBeInTheDocument();
    expect(changes(api)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(changes(api)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Suspend help@acme.example' }));
    const again = await screen.findByRole('dialog', { name: 'Suspend administrator?' });
    await user.click(within(again).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(changes(api)).toHaveLength(1));
    expect(changes(api)[0]).toMatchObject({
      endpoint: adminEndpoints.suspendAdmin,
      params: { tenant: 'acme', id: HELPDESK_ID },
      sentBody: { suspended: true },
    });
    expect(await screen.findByText('help@acme.example is suspended.')).toBeInTheDocument();
    const row = (await screen.findByText('Suspended')).closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Reinstate help@acme.example' })).toBeInTheDocument();
  }, 20_000);

  it('shows the last-owner refusal in the dialog', async () => {
    const api = fakeAdminsApi([OWNER], () => apiError('last_owner', { message: 'Refused.' }));
    const { user } = renderWithProviders(<AdminsPanel />, { session: makeSession() });
    await user.click(await screen.findByRole('button', { name: 'Remove admin@acme.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove administrator?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The last owner cannot be removed.');
    expect(within(dialog).getByRole('button', { name: 'Remove' })).toBeDisabled();
    expect(api.calls(adminEndpoints.removeAdmin).map((s) => s.params)).toEqual([
      { tenant: 'acme', id: OWNER_ID },
    ]);
  }, 15_000);

  it('shows the owner-only rule as a toast', async () => {
    const api = fakeAdminsApi([OWNER, HELPDESK], () => apiError('forbidden', { message: 'Refused.' }));
    const { user } = renderWithProviders(<AdminsPanel />, { session: makeSession({ role: 'admin' }) });
    await user.click(await screen.findByRole('button', { name: 'Suspend admin@acme.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend administrator?' });
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(
      await screen.findByText('Only an owner can invite, suspend or remove an owner.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls(adminEndpoints.suspendAdmin).map((s) => s.body)).toEqual([{ suspended: true }]);
  }, 15_000);
});
