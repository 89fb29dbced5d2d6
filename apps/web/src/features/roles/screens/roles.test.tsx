import { notifications } from '@mantine/notifications';
import {
  ALL_PERMISSIONS,
  BUILT_IN_ROLES,
  type CustomRole,
  type Permission,
  type RoleAssignment,
  type Session,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderRoutes } from '../../../testing/render';
import { Component as Roles } from './roles';

const READERS: CustomRole = {
  id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  name: 'Readers',
  description: 'Looks, never touches',
  permissions: ['users:view'],
  assigned: 1,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};
const SPARE: CustomRole = {
  ...READERS,
  id: '8b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e',
  name: 'Spare',
  assigned: 0,
};

const OWNER_ROW: RoleAssignment = {
  userId: '11111111-1111-4111-8111-111111111111',
  username: 'admin@acme.example',
  firstname: 'Ada',
  lastname: 'Admin',
  role: 'owner',
  customRoleId: null,
  customRoleName: null,
};
const HELPDESK_ROW: RoleAssignment = {
  userId: '22222222-2222-4222-8222-222222222222',
  username: 'helpdesk@acme.example',
  firstname: 'Hal',
  lastname: 'Desk',
  role: 'helpdesk',
  customRoleId: null,
  customRoleName: null,
};

interface Sent {
  method: string;
  url: URL;
  body: unknown;
}

type Answer = (sent: Sent) => Response | undefined;

/** A fake roles API: answers by method and path (an `override` may answer first) and records every request. */
function stubApi(override: Answer = () => undefined) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url);
      const text = await input.clone().text();
      const call = { method: input.method, url, body: text ? JSON.parse(text) : undefined };
      sent.push(call);
      const answer = override(call);
      if (answer) return answer;
      const path = url.pathname;
      if (input.method === 'GET' && path === '/api/roles/acme') {
        return jsonResponse({ builtIn: BUILT_IN_ROLES, custom: [READERS, SPARE] });
      }
      if (input.method === 'POST' && path === '/api/roles/acme') {
        return jsonResponse(
          { ...READERS, id: '9c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f', ...call.body, assigned: 0 },
          201,
        );
      }
      if (input.method === 'DELETE' && path.startsWith('/api/roles/acme/'))
        return jsonResponse({ deleted: true });
      if (input.method === 'GET' && path === '/api/roles/acme/assignments') {
        return jsonResponse({ items: [OWNER_ROW, HELPDESK_ROW], total: 2 });
      }
      if (input.method === 'PUT' && path === `/api/roles/acme/assignments/${HELPDESK_ROW.userId}`) {
        const body = call.body as { role: string | null; customRoleId: string | null };
        return jsonResponse({
          ...HELPDESK_ROW,
          role: body.customRoleId ? 'custom' : body.role,
          customRoleId: body.customRoleId,
          customRoleName: body.customRoleId ? READERS.name : null,
        });
      }
      return jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
    }),
  );
  return {
    sent,
    writes: () => sent.filter((s) => s.method !== 'GET'),
  };
}

function renderRoles(session: Session = makeSession(), route = '/users/roles') {
  return renderRoutes([{ path: '/users/roles', element: <Roles /> }], { route, session });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  // Toasts live in a module-wide store: without this, one test's toasts queue behind another's.
  notifications.clean();
});

// Matrices of 49 checkboxes are slow to click through in a DOM emulation on a busy machine.
describe('roles screen: roles tab', { timeout: 20_000 }, () => {
  it('lists custom roles with holders and the built-in roles with a read-only matrix', async () => {
    stubApi();
    const { user } = renderRoles();
    const readers = (await screen.findByRole('rowheader', { name: 'Readers' })).closest('tr')!;
    expect(within(readers).getByText('Looks, never touches')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Auditor/ }));
    const matrix = await screen.findByRole('table', { name: 'Permissions of Auditor' });
    expect(within(matrix).getByRole('img', { name: 'Users: view: allowed' })).toBeInTheDocument();
    expect(within(matrix).getByRole('img', { name: 'Users: add: not allowed' })).toBeInTheDocument();
    expect(within(matrix).queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('creates a role with the permissions ticked in the matrix, its cells and its "all" toggles', {
    timeout: 40_000,
  }, async () => {
    const api = stubApi();
    const { user } = renderRoles();
    await user.click(await screen.findByRole('button', { name: 'Add role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add role' });

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Keepers');
    await user.click(within(dialog).getByLabelText('Users: add'));
    await user.click(within(dialog).getByLabelText('Groups: all actions'));
    await user.click(within(dialog).getByLabelText('All modules: view'));
    await user.click(within(dialog).getByLabelText('Groups: delete'));
    // Partly ticked rows and columns say so.
    expect(within(dialog).getByLabelText('Groups: all actions')).toHaveAttribute(
      'data-indeterminate',
      'true',
    );
    // Space toggles the focused cell, as a native checkbox does.
    within(dialog).getByLabelText('Roles: edit').focus();
    await user.keyboard(' ');
    await user.click(within(dialog).getByRole('button', { name: 'Add role' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    const expected: Permission[] = ALL_PERMISSIONS.filter(
      (p) =>
        p.endsWith(':view') || ['users:create', 'groups:create', 'groups:update', 'roles:update'].includes(p),
    );
    expect(api.writes()[0]).toMatchObject({ method: 'POST', body: { name: 'Keepers', description: '' } });
    expect((api.writes()[0].body as { permissions: Permission[] }).permissions).toEqual(expected);
    expect(await screen.findByText('Role Keepers created.')).toBeInTheDocument();
  });

  it('the overall toggle ticks everything, and a second press clears everything', async () => {
    const api = stubApi((call) =>
      call.method === 'PUT' ? jsonResponse({ ...SPARE, ...(call.body as object) }) : undefined,
    );
    const { user } = renderRoles();
    await user.click(await screen.findByRole('button', { name: 'Edit Spare' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit role Spare' });
    const all = within(dialog).getByLabelText('All permissions');
    await user.click(all);
    expect(within(dialog).getByLabelText('Billing: delete')).toBeChecked();
    await user.click(all);
    await user.click(within(dialog).getByLabelText('Devices: edit'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({
      method: 'PUT',
      url: expect.objectContaining({ pathname: `/api/roles/acme/${SPARE.id}` }),
      body: { name: 'Spare', permissions: ['devices:update'] },
    });
  });

  it("shows the server's field error on the name and keeps the editor open", async () => {
    stubApi((call) =>
      call.method === 'POST'
        ? jsonResponse(
            {
              errcode: 5,
              code: 'conflict',
              message: 'A role with this name exists.',
              details: [{ path: 'body.name', message: 'validation.roleNameTaken' }],
            },
            409,
          )
        : undefined,
    );
    const { user } = renderRoles();
    await user.click(await screen.findByRole('button', { name: 'Add role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add role' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'readers');
    await user.click(within(dialog).getByRole('button', { name: 'Add role' }));
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveAccessibleDescription('A role with this name already exists.'));
    expect(name).toHaveFocus();
  });

  it('keeps a held role from being deleted, and deletes an unheld one after confirmation', async () => {
    const api = stubApi();
    const { user } = renderRoles();
    const held = await screen.findByRole('button', { name: 'Delete Readers' });
    expect(held).toHaveAttribute('aria-disabled', 'true');
    expect(held).toHaveAccessibleDescription(
      'One administrator holds this role. Give them another role first.',
    );
    await user.click(held);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Spare' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete role?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({ method: 'DELETE' });
    expect(api.writes()[0].url.pathname).toBe(`/api/roles/acme/${SPARE.id}`);
  });

  it('offers only viewing to a role that may view roles but not change them', async () => {
    stubApi();
    const { user } = renderRoles(makeSession({ role: 'auditor' }));
    await user.click(await screen.findByRole('button', { name: 'View Readers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Readers' });
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add role' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete / })).not.toBeInTheDocument();
  });
});

describe('roles screen: assignments tab', { timeout: 20_000 }, () => {
  it('keeps the tab in the address', async () => {
    stubApi();
    const { user, router } = renderRoles();
    await user.click(await screen.findByRole('tab', { name: 'Assignments' }));
    expect(router.state.location.search).toBe('?tab=assignments');
    expect(await screen.findByText('helpdesk@acme.example')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Roles' }));
    expect(router.state.location.search).toBe('?tab=roles');
  });

  it('gives an administrator a custom role: role null, the custom role id, and a success toast', async () => {
    const api = stubApi();
    const { user } = renderRoles(makeSession(), '/users/roles?tab=assignments');
    const select = await screen.findByRole('combobox', { name: 'Role of helpdesk@acme.example' });
    expect(select).toHaveValue('role:helpdesk');
    await waitFor(() => expect(within(select).getByRole('option', { name: 'Readers' })).toBeInTheDocument());
    await user.selectOptions(select, 'Readers');

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({
      method: 'PUT',
      body: { role: null, customRoleId: READERS.id },
    });
    expect(api.writes()[0].url.pathname).toBe(`/api/roles/acme/assignments/${HELPDESK_ROW.userId}`);
    expect(await screen.findByText('helpdesk@acme.example is now Readers.')).toBeInTheDocument();
  });

  it('gives a built-in role with customRoleId null', async () => {
    const api = stubApi();
    const { user } = renderRoles(makeSession(), '/users/roles?tab=assignments');
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Role of helpdesk@acme.example' }),
      'Auditor',
    );
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0].body).toEqual({ role: 'auditor', customRoleId: null });
  });

  it('says clearly when the last owner would lose the role, and keeps the shown role', async () => {
    stubApi((call) =>
      call.method === 'PUT'
        ? jsonResponse(
            { errcode: 17, code: 'last_owner', message: 'The last owner cannot be given another role.' },
            409,
          )
        : undefined,
    );
    const { user } = renderRoles(makeSession(), '/users/roles?tab=assignments');
    const select = await screen.findByRole('combobox', { name: 'Role of admin@acme.example' });
    await user.selectOptions(select, 'Administrator');
    expect(
      await screen.findByText('This is the last owner. Make someone else owner first.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('The last owner cannot be removed.')).toBeInTheDocument();
    await waitFor(() => expect(select).toHaveValue('role:owner'));
  });

  it('searches on the server and shows roles as text to a role that may not change them', async () => {
    const api = stubApi();
    const { user } = renderRoles(makeSession({ role: 'auditor' }), '/users/roles?tab=assignments');
    const row = (await screen.findByText('helpdesk@acme.example')).closest('tr')!;
    expect(within(row).getByText('Helpdesk')).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search administrators' }), 'hal');
    await waitFor(() =>
      expect(
        api.sent.some(
          (s) => s.url.pathname === '/api/roles/acme/assignments' && s.url.searchParams.get('q') === 'hal',
        ),
      ).toBe(true),
    );
  });
});
