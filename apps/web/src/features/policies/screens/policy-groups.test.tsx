import {
  CONFIG_FLAGS,
  type DeviceOption,
  enrolmentEndpoints,
  type PolicyGroup,
  policyEndpoints,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { ALPHA, fakePolicyApi, LISTS } from '../testing/fixtures';
import { Component as PolicyGroupCopy } from './policy-group-copy';
import { Component as PolicyGroupDetail } from './policy-group-detail';
import { Component as PolicyGroupsList } from './policy-groups-list';

const GROUP_ID = '66666666-6666-4666-8666-666666666666';
const BUILD_BOX = 'dddddddd-0001-4000-8000-000000000001';
const KIOSK = 'dddddddd-0002-4000-8000-000000000002';
const LOBBY = 'dddddddd-0003-4000-8000-000000000003';
const GROUP: PolicyGroup = {
  id: GROUP_ID,
  name: 'Engineering',
  description: 'Developer tooling',
  policies: [{ id: ALPHA, name: 'Alpha', type: 'other' }],
  groups: [{ id: '77777777-7777-4777-8777-777777777777', name: 'Engineers' }],
  users: [{ id: '88888888-8888-4888-8888-888888888888', username: 'ada@acme.example' }],
  devices: [
    { id: BUILD_BOX, name: 'Build box', username: 'ada@acme.example' },
    { id: KIOSK, name: 'Kiosk', username: null },
  ],
  // ada and the two other members of Engineers.
  userCount: 3,
  updatedAt: '2026-03-01T10:00:00.000Z',
};

/** The fake API of one policy group's page: the group, the policies to pick and the editor's look-ups. */
function fakeGroupApi(): FakeApi {
  return fakePolicyApi()
    .on(policyEndpoints.getPolicyGroup, ({ params }) =>
      params.id === GROUP_ID ? GROUP : apiError('not_found'),
    )
    .on(policyEndpoints.listPolicies, () => LISTS);
}

function render(route: string) {
  return renderRoutes(
    [
      { path: '/policy/policyGroups', element: <PolicyGroupsList /> },
      { path: '/policy/policyGroups/:id', element: <PolicyGroupDetail /> },
      { path: '/policy/policyGroups/:id/:type', element: <PolicyGroupCopy /> },
    ],
    // A tenant with policy groups (its `policyGroups` configuration flag, off by default).
    { route, session: makeSession({ configurations: { ...CONFIG_FLAGS, policyGroups: true } }) },
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('policy groups', () => {
  it('lists groups with their policies and assignment counts', async () => {
    const api = fakePolicyApi().on(policyEndpoints.listPolicyGroups, () => [GROUP]);
    render('/policy/policyGroups');
    const row = await screen.findByTestId('policy-group-row');
    expect(within(row).getByRole('link', { name: 'Engineering' })).toHaveAttribute(
      'href',
      `/policy/policyGroups/${GROUP_ID}`,
    );
    expect(within(row).getByText('Alpha')).toBeInTheDocument();
    const cells = within(row).getAllByRole('cell');
    // User groups, users (the one assigned directly and the group's members, as the server counts them), devices.
    expect(cells.slice(2, 5).map((cell) => cell.textContent)).toEqual(['1', '3', '2']);
    expect(within(row).getByRole('link', { name: 'Copy Engineering' })).toHaveAttribute(
      'href',
      `/policy/policyGroups/${GROUP_ID}/copy`,
    );
    expect(api.unhandled).toEqual([]);
  });

  it('copies a group: the form is prefilled and creates a new group with the same assignments', async () => {
    const api = fakeGroupApi().on(policyEndpoints.createPolicyGroup, ({ body }) => ({
      ...GROUP,
      id: '99999999-9999-4999-8999-999999999999',
      name: body.name,
      description: body.description,
    }));
    const { user, router } = render(`/policy/policyGroups/${GROUP_ID}/copy`);
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Copy of Engineering');
    await user.click(screen.getByRole('button', { name: 'Add policy group' }));

    await waitFor(() => expect(api.calls(policyEndpoints.createPolicyGroup)).toHaveLength(1));
    expect(api.calls(policyEndpoints.createPolicyGroup)[0].sentBody).toEqual({
      name: 'Copy of Engineering',
      description: 'Developer tooling',
      policyIds: [ALPHA],
      groupIds: ['77777777-7777-4777-8777-777777777777'],
      userIds: ['88888888-8888-4888-8888-888888888888'],
      deviceIds: [BUILD_BOX, KIOSK],
    });
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        '/policy/policyGroups/99999999-9999-4999-8999-999999999999',
      ),
    );
    expect(api.unhandled).toEqual([]);
  });

  it('shows the failing tests when a save is refused, and a taken name on its field', async () => {
    let answer: 'tests' | 'taken' = 'tests';
    fakeGroupApi().on(policyEndpoints.updatePolicyGroup, () =>
      answer === 'tests'
        ? apiError('policy_tests_failed', {
            message: 'A policy test would fail.',
            failures: [
              { testId: 't1', name: 'GitHub reachable', expect: 'allow', actual: 'block', rule: null },
            ],
          })
        : apiError('conflict', {
            message: 'Taken.',
            details: [{ path: 'body.name', message: 'policy.validation.groupNameTaken' }],
          }),
    );
    const { user } = render(`/policy/policyGroups/${GROUP_ID}`);
    await screen.findByRole('heading', { name: 'Edit Engineering' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const failure = await screen.findByText('GitHub reachable');
    const alert = failure.closest('[role="alert"]');
    expect(alert).toHaveTextContent('Not saved: this change breaks policy tests');
    expect(alert).toHaveTextContent('GitHub reachable: expected Allowed, would be Blocked');

    answer = 'taken';
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A policy group with this name already exists.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('picks devices by a server-side search and sends their ids; the usage names them', async () => {
    const all: DeviceOption[] = [
      { id: BUILD_BOX, name: 'Build box', os: 'linux', username: 'ada@acme.example' },
      { id: LOBBY, name: 'Lobby screen', os: 'windows', username: null },
    ];
    const api = fakeGroupApi()
      .on(enrolmentEndpoints.listDeviceOptions, ({ query }) => {
        const q = query.q ?? '';
        return all.filter((d) => d.name.toLowerCase().includes(q.toLowerCase()));
      })
      .on(policyEndpoints.updatePolicyGroup, ({ body }) => ({
        ...GROUP,
        name: body.name,
        description: body.description,
        devices: [...GROUP.devices, { id: LOBBY, name: 'Lobby screen', username: null }],
      }));
    const { user } = render(`/policy/policyGroups/${GROUP_ID}`);
    await screen.findByRole('heading', { name: 'Edit Engineering' });
    const usage = screen.getByRole('region', { name: 'Where it is used' });
    expect(within(usage).getByText('Device Build box (ada@acme.example)')).toBeInTheDocument();
    expect(within(usage).getByText('Device Kiosk')).toBeInTheDocument();
    expect(within(usage).getByTestId('policy-group-reach')).toHaveTextContent(
      '3 users, assigned directly or through a user group.',
    );

    const field = screen.getByRole('combobox', { name: 'Devices' });
    await user.type(field, 'lobby');
    await user.click(
      await screen.findByRole('option', { name: 'Lobby screen', hidden: true }, { timeout: 3000 }),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls(policyEndpoints.updatePolicyGroup)).toHaveLength(1));
    expect(api.calls(policyEndpoints.updatePolicyGroup)[0].sentBody).toMatchObject({
      deviceIds: [BUILD_BOX, KIOSK, LOBBY],
    });
    const searches = api.calls(enrolmentEndpoints.listDeviceOptions);
    expect(searches.length).toBeGreaterThan(0);
    expect(api.unhandled).toEqual([]);
  });
});
