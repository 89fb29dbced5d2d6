import { type User, userEndpoints } from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as UsersList } from './users-list';

const ALICE: User = {
  id: '11111111-1111-4111-8111-111111111111',
  userid: '11111111-1111-4111-8111-111111111111',
  username: 'alice@acme.example',
  shortname: 'alice',
  firstname: 'Alice',
  lastname: 'Able',
  fullname: 'Alice Able',
  email: 'alice@acme.example',
  groups: [],
  connstatus: 'never',
  isprvaccess: false,
  issiauser: false,
  isxdrenabled: false,
  suci: null,
  imsi: null,
  usertype: 0,
  tenant: 'acme',
  status: 'active',
  statusReason: null,
  statusChangedBy: null,
  statusChangedAt: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

function fakeUsersApi() {
  return fakeApi()
    .on(userEndpoints.listUsers, () => keysetPage([ALICE]))
    .on(userEndpoints.listGroupOptions, () => []);
}

function renderList(permissions: ReturnType<typeof makeSession>['permissions']) {
  // The role is "custom": only the session's permissions say what the user may do.
  const session = makeSession({ role: 'custom', customRoleName: 'Readers', permissions });
  return renderRoutes([{ path: '/users/list', element: <UsersList /> }], { route: '/users/list', session });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('users list under a custom role', () => {
  it('hides add, copy and selection from a view-only custom role', async () => {
    const api = fakeUsersApi();
    renderList(['users:view']);
    await screen.findByRole('link', { name: 'Alice Able' });
    expect(screen.queryByRole('link', { name: 'Add user' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Copy Alice Able' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Select Alice Able' })).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('offers add and copy once the custom role may create users', async () => {
    fakeUsersApi();
    renderList(['users:view', 'users:create']);
    await screen.findByRole('link', { name: 'Alice Able' });
    expect(screen.getByRole('link', { name: 'Add user' })).toHaveAttribute('href', '/users/add');
    expect(screen.getByRole('link', { name: 'Copy Alice Able' })).toBeInTheDocument();
  });
});
