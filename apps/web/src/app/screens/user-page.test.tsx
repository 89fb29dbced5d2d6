import {
  enrolmentEndpoints,
  eventEndpoints,
  policyEndpoints,
  type User,
  userEndpoints,
} from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, keysetPage } from '../../testing/fake-api';
import { makeSession, renderRoutes } from '../../testing/render';
import { Component as UserPage } from './user-page';

const ANN: User = {
  id: '11111111-1111-4111-8111-111111111111',
  userid: '11111111-1111-4111-8111-111111111111',
  username: 'ann@acme.example',
  shortname: 'ann',
  firstname: 'Ann',
  lastname: 'Able',
  fullname: 'Ann Able',
  email: 'ann@acme.example',
  groups: [],
  connstatus: 'connected',
  isprvaccess: false,
  issiauser: true,
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

/** Ann with a laptop, one policy reaching her through a group, and two changes in the log. */
function fakeUserPageApi() {
  const api = fakeApi();
  api.on(userEndpoints.getUser, () => ANN);
  api.on(userEndpoints.listGroupOptions, () => []);
  api.on(enrolmentEndpoints.listUserDevices, () => ({
    items: [
      {
        id: ANN.id,
        username: ANN.username,
        fullname: ANN.fullname,
        connstatus: 'connected' as const,
        state: 'enrolled' as const,
        link: null,
        devices: [
          {
            id: '22222222-2222-4222-8222-222222222222',
            name: 'Ann laptop',
            os: 'mac' as const,
            userId: ANN.id,
            username: ANN.username,
            connstatus: 'connected' as const,
            enrolledVia: 'link' as const,
            enrolledAt: '2026-03-01T11:00:00.000Z',
            lastSeenAt: null,
          },
        ],
      },
    ],
    total: 1,
  }));
  api.on(policyEndpoints.userPolicyView, () => ({
    items: [
      {
        id: ANN.id,
        username: ANN.username,
        fullname: ANN.fullname,
        groups: [{ id: 'g1', name: 'Sales' }],
        policies: [
          {
            id: '33333333-3333-4333-8333-333333333333',
            name: 'Block gambling',
            type: 'other' as const,
            enabled: true,
            via: [{ kind: 'group' as const, policyGroup: 'Sales rules', group: 'Sales' }],
          },
        ],
      },
    ],
    total: 1,
  }));
  api.on(eventEndpoints.listAdminEvents, () =>
    keysetPage([
      {
        id: '44444444-4444-4444-8444-444444444444',
        at: '2026-03-02T09:00:00.000Z',
        actor: 'admin@acme.example',
        action: 'user.update',
        objectType: 'user',
        objectId: ANN.id,
        objectName: ANN.username,
        ip: null,
      },
    ]),
  );
  return api;
}

function renderPage(session = makeSession(), route = `/users/${ANN.id}`) {
  return renderRoutes([{ path: '/users/:id', element: <UserPage /> }], { route, session });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a user's page", () => {
  it('shows details, policies, devices and activity as tabs, each from its own area', async () => {
    const api = fakeUserPageApi();
    const { user, router } = renderPage();
    const tabs = await screen.findByRole('tablist');
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Details', 'Policies', 'Devices', 'Activity', 'Dashboard link']);
    // The details tab is the description list of the user.
    expect(screen.getByText('Short name')).toBeInTheDocument();

    await user.click(within(tabs).getByRole('tab', { name: 'Policies' }));
    expect(await screen.findByRole('link', { name: 'Block gambling' })).toBeInTheDocument();
    expect(screen.getByText('Group Sales, through Sales rules')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=policies');

    await user.click(within(tabs).getByRole('tab', { name: 'Devices' }));
    expect(await screen.findByRole('cell', { name: 'Ann laptop' })).toBeInTheDocument();
    expect(api.calls(enrolmentEndpoints.listUserDevices)[0].query).toMatchObject({ userId: ANN.id });

    await user.click(within(tabs).getByRole('tab', { name: 'Activity' }));
    expect(await screen.findByRole('cell', { name: 'User updated' })).toBeInTheDocument();
    expect(api.calls(eventEndpoints.listAdminEvents)[0].query).toMatchObject({
      objectId: ANN.id,
      order: 'desc',
    });
    expect(api.unhandled).toEqual([]);
  });

  it('opens the tab named in the address, and leaves out what the role may not see', async () => {
    const api = fakeUserPageApi();
    renderPage(makeSession({ role: 'helpdesk' }), `/users/${ANN.id}?tab=devices`);
    const tabs = await screen.findByRole('tablist');
    // Helpdesk sees devices and events, not policies.
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Details', 'Devices', 'Activity', 'Dashboard link']);
    expect(await screen.findByRole('cell', { name: 'Ann laptop' })).toBeInTheDocument();
    expect(api.calls(policyEndpoints.userPolicyView)).toHaveLength(0);
    expect(api.unhandled).toEqual([]);
  });
});
