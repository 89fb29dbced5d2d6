import type { PolicyGroup } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderRoutes } from '../../../testing/render';
import { ALPHA, LISTS, stubApi } from '../testing/fixtures';
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
  updatedAt: '2026-03-01T10:00:00.000Z',
};

function render(route: string) {
  return renderRoutes(
    [
      { path: '/policy/policyGroups', element: <PolicyGroupsList /> },
      { path: '/policy/policyGroups/:id', element: <PolicyGroupDetail /> },
      { path: '/policy/policyGroups/:id/:type', element: <PolicyGroupCopy /> },
    ],
    { route, session: makeSession() },
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
    stubApi(({ method, path }) =>
      method === 'GET' && path === '/api/policy/group/acme' ? jsonResponse([GROUP]) : undefined,
    );
    render('/policy/policyGroups');
    const row = await screen.findByTestId('policy-group-row');
    expect(within(row).getByRole('link', { name: 'Engineering' })).toHaveAttribute(
      'href',
      `/policy/policyGroups/${GROUP_ID}`,
    );
    expect(within(row).getByText('Alpha')).toBeInTheDocument();
    const cells = within(row).getAllByRole('cell');
    expect(cells.slice(2, 5).map((cell) => cell.textContent)).toEqual(['1', '1', '2']);
    expect(within(row).getByRole('link', { name: 'Copy Engineering' })).toHaveAttribute(
      'href',
      `/policy/policyGroups/${GROUP_ID}/copy`,
    );
  });

  it('copies a group: the form is prefilled and creates a new group with the same assignments', async () => {
    const sent = stubApi(({ method, path, body }) => {
      if (method === 'GET' && path === `/api/policy/group/acme/${GROUP_ID}`) return jsonResponse(GROUP);
      if (method === 'GET' && path === '/api/policy/acme') return jsonResponse(LISTS);
      if (method === 'POST' && path === '/api/policy/group/acme') {
        return jsonResponse(
          { ...GROUP, id: '99999999-9999-4999-8999-999999999999', ...(body as object) },
          201,
        );
      }
      return undefined;
    });
    const { user, router } = render(`/policy/policyGroups/${GROUP_ID}/copy`);
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Copy of Engineering');
    await user.click(screen.getByRole('button', { name: 'Add policy group' }));

    await waitFor(() => expect(sent.some((s) => s.method === 'POST')).toBe(true));
    expect(sent.find((s) => s.method === 'POST')?.body).toEqual({
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
  });

  it('shows the failing tests when a save is refused, and a taken name on its field', async () => {
    let answer = 409;
    stubApi(({ method, path }) => {
      if (method === 'GET' && path === `/api/policy/group/acme/${GROUP_ID}`) return jsonResponse(GROUP);
      if (method === 'GET' && path === '/api/policy/acme') return jsonResponse(LISTS);
      if (method === 'PUT' && path === `/api/policy/group/acme/${GROUP_ID}`) {
        return answer === 409
          ? jsonResponse(
              {
                errcode: 19,
                code: 'policy_tests_failed',
                message: 'A policy test would fail.',
                failures: [
                  { testId: 't1', name: 'GitHub reachable', expect: 'allow', actual: 'block', rule: null },
                ],
              },
              409,
            )
          : jsonResponse(
              {
                errcode: 5,
                code: 'conflict',
                message: 'Taken.',
                details: [{ path: 'body.name', message: 'policy.validation.groupNameTaken' }],
              },
              409,
            );
      }
      return undefined;
    });
    const { user } = render(`/policy/policyGroups/${GROUP_ID}`);
    await screen.findByRole('heading', { name: 'Edit Engineering' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const failure = await screen.findByText('GitHub reachable');
    const alert = failure.closest('[role="alert"]');
    expect(alert).toHaveTextContent('Not saved: this change breaks policy tests');
    expect(alert).toHaveTextContent('GitHub reachable: expected Allowed, would be Blocked');

    answer = 400;
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A policy group with this name already exists.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('picks devices by a server-side search and sends their ids; the usage names them', async () => {
    const sent = stubApi(({ method, path, url, body }) => {
      if (method === 'GET' && path === `/api/policy/group/acme/${GROUP_ID}`) return jsonResponse(GROUP);
      if (method === 'GET' && path === '/api/policy/acme') return jsonResponse(LISTS);
      if (method === 'GET' && path === '/api/enrolment/acme/devices/options') {
        const q = url.searchParams.get('q') ?? '';
        const all = [
          { id: BUILD_BOX, name: 'Build box', os: 'linux', username: 'ada@acme.example' },
          { id: LOBBY, name: 'Lobby screen', os: 'windows', username: null },
        ];
        return jsonResponse(all.filter((d) => d.name.toLowerCase().includes(q.toLowerCase())));
      }
      if (method === 'PUT' && path === `/api/policy/group/acme/${GROUP_ID}`) {
        return jsonResponse({ ...GROUP, ...(body as object) });
      }
      return undefined;
    });
    const { user } = render(`/policy/policyGroups/${GROUP_ID}`);
    await screen.findByRole('heading', { name: 'Edit Engineering' });
    const usage = screen.getByRole('region', { name: 'Where it is used' });
    expect(within(usage).getByText('Device Build box (ada@acme.example)')).toBeInTheDocument();
    expect(within(usage).getByText('Device Kiosk')).toBeInTheDocument();

    const field = screen.getByRole('combobox', { name: 'Devices' });
    await user.type(field, 'lobby');
    await user.click(
      await screen.findByRole('option', { name: 'Lobby screen', hidden: true }, { timeout: 3000 }),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.some((s) => s.method === 'PUT')).toBe(true));
    expect(sent.find((s) => s.method === 'PUT')?.body).toMatchObject({
      deviceIds: [BUILD_BOX, KIOSK, LOBBY],
    });
    const searches = sent.filter((s) => s.path === '/api/enrolment/acme/devices/options');
    expect(searches.length).toBeGreaterThan(0);
  });
});
