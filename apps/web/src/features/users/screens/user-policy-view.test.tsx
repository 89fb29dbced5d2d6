import { policyEndpoints, type UserPolicyView } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as UserPolicyViewScreen } from './user-policy-view';

const BOB: UserPolicyView = {
  id: '22222222-2222-4222-8222-222222222222',
  username: 'bob@acme.example',
  fullname: 'Bob Builder',
  groups: [{ id: '33333333-3333-4333-8333-333333333333', name: 'Engineering' }],
  policies: [
    {
      id: '44444444-4444-4444-8444-444444444444',
      name: 'Block gambling',
      type: 'other',
      enabled: true,
      via: [{ kind: 'everyone', policyGroup: null, group: null }],
    },
    {
      id: '55555555-5555-4555-8555-555555555555',
      name: 'Developer tools',
      type: 'other',
      enabled: false,
      via: [{ kind: 'group', policyGroup: 'Engineering bundle', group: 'Engineering' }],
    },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe('/users/user-policy-view', () => {
  it('shows each user with the policies that apply and through what, and searches on the server', async () => {
    const api = fakeApi().on(policyEndpoints.userPolicyView, ({ query }) =>
      query.q === 'nobody' ? { items: [], total: 0 } : { items: [BOB], total: 1 },
    );
    renderRoutes([{ path: '/users/user-policy-view', element: <UserPolicyViewScreen /> }], {
      route: '/users/user-policy-view',
      session: makeSession({ role: 'owner' }),
    });

    const row = (await screen.findByRole('link', { name: 'Bob Builder' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Engineering')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Block gambling' })).toHaveAttribute(
      'href',
      '/policy/list?policy=44444444-4444-4444-8444-444444444444',
    );
    expect(within(row).getByText('Everyone (in no policy group)')).toBeInTheDocument();
    expect(within(row).getByText('Group Engineering, through Engineering bundle')).toBeInTheDocument();
    expect(within(row).getByText('Disabled')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'nobody');
    expect(await screen.findByText('No users match your search.')).toBeInTheDocument();
    expect(api.calls(policyEndpoints.userPolicyView).at(-1)?.query.q).toBe('nobody');
  });
});
