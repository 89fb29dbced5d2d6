import { notifications } from '@mantine/notifications';
import {
  ALL_PERMISSIONS,
  BUILT_IN_ROLES,
  type CustomRole,
  type Permission,
  roleEndpoints,
  type Session,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
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

/** A fake roles API: the roles, creating and deleting custom roles (a test may register more, or other answers). */
function fakeRolesApi() {
  const api = fakeApi()
    .on(roleEndpoints.listRoles, () => ({ builtIn: BUILT_IN_ROLES, custom: [READERS, SPARE] }))
    .on(roleEndpoints.createRole, ({ body }) => ({
      ...READERS,
      id: '9c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f',
      ...body,
      assigned: 0,
    }))
    .on(roleEndpoints.deleteRole, () => ({ deleted: true as const }));
  return { api, writes: () => api.requests.filter((s) => s.method !== 'GET') };
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
    const { api } = fakeRolesApi();
    const { user } = renderRoles();
    const readers = (await screen.findByRole('rowheader', { name: 'Readers' })).closest('tr')!;
    expect(within(readers).getByText('Looks, never touches')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Auditor/ }));
    const matrix = await screen.findByRole('table', { name: 'Permissions of Auditor' });
    expect(within(matrix).getByRole('img', { name: 'Users: view: allowed' })).toBeInTheDocument();
    expect(within(matrix).getByRole('img', { name: 'Users: add: not allowed' })).toBeInTheDocument();
    expect(within(matrix).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('creates a role with the permissions ticked in the matrix, its cells and its "all" toggles', {
    timeout: 40_000,
  }, async () => {
    const api = fakeRolesApi();
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
    expect(api.writes()[0]).toMatchObject({
      endpoint: roleEndpoints.createRole,
      sentBody: { name: 'Keepers', description: '' },
    });
    expect(
      (api.api.calls(roleEndpoints.createRole)[0].sentBody as { permissions: Permission[] }).permissions,
    ).toEqual(expected);
    expect(await screen.findByText('Role Keepers created.')).toBeInTheDocument();
  });

  it('the overall toggle ticks everything, and a second press clears everything', async () => {
    const api = fakeRolesApi();
    api.api.on(roleEndpoints.updateRole, ({ params, body }) =>
      params.id === SPARE.id ? { ...SPARE, ...body } : apiError('not_found'),
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
      endpoint: roleEndpoints.updateRole,
      url: expect.objectContaining({ pathname: `/api/roles/acme/${SPARE.id}` }),
      sentBody: { name: 'Spare', permissions: ['devices:update'] },
    });
  });

  it("shows the server's field error on the name and keeps the editor open", async () => {
    fakeRolesApi().api.on(roleEndpoints.createRole, () =>
      apiError('conflict', {
        message: 'A role with this name exists.',
        details: [{ path: 'body.name', message: 'validation.roleNameTaken' }],
      }),
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
    const api = fakeRolesApi();
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
    expect(api.writes()[0]).toMatchObject({ endpoint: roleEndpoints.deleteRole });
    expect(api.writes()[0].url.pathname).toBe(`/api/roles/acme/${SPARE.id}`);
  });

  it('offers only viewing to a role that may view roles but not change them', async () => {
    fakeRolesApi();
    const { user } = renderRoles(makeSession({ role: 'auditor' }));
    await user.click(await screen.findByRole('button', { name: 'View Readers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Readers' });
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add role' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete / })).not.toBeInTheDocument();
  });
});
