import { notifications } from '@mantine/notifications';
import {
  type Admin,
  adminEndpoints,
  BUILT_IN_ROLES,
  type CustomRole,
  roleEndpoints,
  type Session,
  tokenEndpoints,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeReply, fakeApi, fileResponse } from '../../testing/fake-api';
import { makeSession, renderRoutes } from '../../testing/render';
import { Component as RolesPage } from './roles-page';

const READERS: CustomRole = {
  id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  name: 'Readers',
  description: 'Looks, never touches',
  permissions: ['users:view'],
  assigned: 0,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

function admin(overrides: Partial<Admin> & Pick<Admin, 'id' | 'username'>): Admin {
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

const OWNER = admin({
  id: '11111111-1111-4111-8111-111111111111',
  username: 'admin@acme.example',
  firstname: 'Ada',
  role: 'owner',
});
const HELPDESK = admin({
  id: '22222222-2222-4222-8222-222222222222',
  username: 'helpdesk@acme.example',
  firstname: 'Hal',
  role: 'helpdesk',
});
const INVITED = admin({
  id: '33333333-3333-4333-8333-333333333333',
  username: 'new@acme.example',
  firstname: 'Nia',
  status: 'invited',
});

/**
 * A fake of the APIs the page calls: the roles, the administrators (who keep the role they are given), role
 * assignments, their export, and the administrators' API tokens (none); `refuseAssign` answers assignments.
 */
function fakeRolesPageApi({ refuseAssign }: { refuseAssign?: () => FakeReply } = {}) {
  let admins = [OWNER, HELPDESK, INVITED];
  const api = fakeApi()
    .on(roleEndpoints.listRoles, () => ({ builtIn: BUILT_IN_ROLES, custom: [READERS] }))
    .on(adminEndpoints.listAdmins, ({ query }) => {
      const q = query.q?.toLowerCase();
      const items = q
        ? admins.filter((a) => `${a.username} ${a.firstname}`.toLowerCase().includes(q))
        : admins;
      return { items, total: items.length };
    })
    .on(roleEndpoints.assignRole, ({ params, body }) => {
      if (refuseAssign) return refuseAssign();
      const { role, customRoleId } = body;
      admins = admins.map((a) =>
        a.id === params.id ? { ...a, role: customRoleId ? 'custom' : (role ?? a.role), customRoleId } : a,
      );
      const changed = admins.find((a) => a.id === params.id);
      if (!changed) return apiError('not_found');
      return {
        userId: changed.id,
        username: changed.username,
        firstname: changed.firstname,
        lastname: changed.lastname,
        role: changed.role,
        customRoleId,
        customRoleName: customRoleId ? READERS.name : null,
      };
    })
    .on(roleEndpoints.exportAssignments, () =>
      fileResponse('username,firstname,lastname,role,status\n', 'role-assignments-acme.csv', 'text/csv'),
    )
    .on(tokenEndpoints.listTenantTokens, () => ({ items: [], total: 0 }));
  return {
    api,
    adminLists: () => api.calls(adminEndpoints.listAdmins),
    writes: () => api.requests.filter((s) => s.method !== 'GET'),
  };
}

function renderPage(session: Session = makeSession(), route = '/users/roles?tab=assignments') {
  return renderRoutes([{ path: '/users/roles', element: <RolesPage /> }], { route, session });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  // The CSV export saves through an object URL.
  URL.createObjectURL = vi.fn(() => 'blob:export');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

describe('roles page: assignments', { timeout: 20_000 }, () => {
  it('lists every administrator once, with role, status and actions, and keeps the tab in the address', async () => {
    const api = fakeRolesPageApi();
    const { user, router } = renderPage(makeSession(), '/users/roles');
    await user.click(await screen.findByRole('tab', { name: 'Assignments' }));
    expect(router.state.location.search).toBe('?tab=assignments');

    const helpdesk = (await screen.findByText('helpdesk@acme.example')).closest('tr') as HTMLElement;
    // One list: each administrator appears once on the page, and there is one administrators list.
    expect(screen.getAllByText('helpdesk@acme.example')).toHaveLength(1);
    expect(screen.getAllByRole('heading', { name: 'Administrators' })).toHaveLength(1);
    expect(within(helpdesk).getByRole('combobox', { name: 'Role of helpdesk@acme.example' })).toHaveValue(
      'role:helpdesk',
    );
    expect(within(helpdesk).getByText('Active')).toBeInTheDocument();
    expect(
      within(helpdesk).getByRole('button', { name: 'Suspend helpdesk@acme.example' }),
    ).toBeInTheDocument();
    expect(
      within(helpdesk).getByRole('button', { name: 'Remove helpdesk@acme.example' }),
    ).toBeInTheDocument();
    const invited = screen.getByText('new@acme.example').closest('tr') as HTMLElement;
    expect(within(invited).getByText('Invited')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Invite administrator' })).toBeInTheDocument();
    // The role assignments list is not asked for any more: the administrators list is the one list.
    expect(api.api.calls(roleEndpoints.listAssignments)).toHaveLength(0);
    expect(api.api.unhandled).toEqual([]);

    await user.click(screen.getByRole('tab', { name: 'Roles' }));
    expect(router.state.location.search).toBe('?tab=roles');
    expect(screen.queryByText('helpdesk@acme.example')).not.toBeInTheDocument();
  });

  it('gives a custom role (role null, its id), says so, and shows the list with the new role', async () => {
    const api = fakeRolesPageApi();
    const { user } = renderPage();
    const select = await screen.findByRole('combobox', { name: 'Role of helpdesk@acme.example' });
    await waitFor(() => expect(within(select).getByRole('option', { name: 'Readers' })).toBeInTheDocument());
    const listsBefore = api.adminLists().length;
    await user.selectOptions(select, 'Readers');

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({
      endpoint: roleEndpoints.assignRole,
      sentBody: { role: null, customRoleId: READERS.id },
    });
    expect(api.writes()[0].url.pathname).toBe(`/api/roles/acme/assignments/${HELPDESK.id}`);
    expect(await screen.findByText('helpdesk@acme.example is now Readers.')).toBeInTheDocument();
    expect(api.adminLists().length).toBeGreaterThan(listsBefore);
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Role of helpdesk@acme.example' })).toHaveValue(
        `custom:${READERS.id}`,
      ),
    );
  });

  it('gives a built-in role with customRoleId null', async () => {
    const api = fakeRolesPageApi();
    const { user } = renderPage();
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Role of helpdesk@acme.example' }),
      'Auditor',
    );
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({ endpoint: roleEndpoints.assignRole });
    expect(api.api.calls(roleEndpoints.assignRole)[0].sentBody).toEqual({
      role: 'auditor',
      customRoleId: null,
    });
  });

  it('says clearly when the last owner would lose the role, and keeps the shown role', async () => {
    const api = fakeRolesPageApi({
      refuseAssign: () => apiError('last_owner', { message: 'The last owner cannot be given another role.' }),
    });
    const { user } = renderPage();
    const select = await screen.findByRole('combobox', { name: 'Role of admin@acme.example' });
    await user.selectOptions(select, 'Administrator');
    expect(
      await screen.findByText('This is the last owner. Make someone else owner first.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(select).toHaveValue('role:owner'));
    expect(api.api.calls(roleEndpoints.assignRole).map((s) => s.body)).toEqual([
      { role: 'admin', customRoleId: null },
    ]);
  });

  it('searches on the server, keeps the search in the address and exports what it finds', async () => {
    const api = fakeRolesPageApi();
    const { user, router } = renderPage(makeSession({ role: 'auditor' }));
    const row = (await screen.findByText('helpdesk@acme.example')).closest('tr') as HTMLElement;
    // A role that may not change roles sees them as text.
    expect(await within(row).findByText('Helpdesk')).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search administrators' }), 'hal');
    await waitFor(() =>
      expect(api.adminLists().some((s) => s.url.searchParams.get('q') === 'hal')).toBe(true),
    );
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('q')).toBe('hal'));
    await waitFor(() => expect(screen.queryByText('admin@acme.example')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() =>
      expect(api.api.calls(roleEndpoints.exportAssignments)[0]?.url.searchParams.get('q')).toBe('hal'),
    );
    expect(api.api.unhandled).toEqual([]);
  });
});
