import { type User, type UserBulkJob, userBulkEndpoints, userEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as UsersList } from './users-list';

const JOB_ID = '5d6e7f80-1a2b-4c3d-9e8f-a0b1c2d3e4f5';

function makeUser(id: string, firstname: string): User {
  const username = `${firstname.toLowerCase()}@acme.example`;
  return {
    id,
    userid: id,
    username,
    shortname: firstname.toLowerCase(),
    firstname,
    lastname: 'Tester',
    fullname: `${firstname} Tester`,
    email: username,
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
}

/** One page of three users out of 12 345 that match. */
const PAGE = [
  makeUser('11111111-1111-4111-8111-111111111111', 'Alice'),
  makeUser('22222222-2222-4222-8222-222222222222', 'Bob'),
  makeUser('33333333-3333-4333-8333-333333333333', 'Carol'),
];
const TOTAL = 12_345;

function makeJob(overrides: Partial<UserBulkJob>): UserBulkJob {
  return {
    id: JOB_ID,
    status: 'running',
    action: 'enablePrivateAccess',
    groupId: null,
    match: {},
    matched: TOTAL,
    processed: 0,
    changed: 0,
    error: null,
    brokenTests: [],
    undoable: false,
    undoneBy: null,
    undoOf: null,
    startedAt: '2026-03-01T10:00:00.000Z',
    finishedAt: null,
    ...overrides,
  };
}

/** The fake API of the list: one page of three users out of {@link TOTAL}, and no groups. Tests add the jobs. */
function fakeUsersApi() {
  return fakeApi()
    .on(userEndpoints.listUsers, () => ({
      items: PAGE,
      total: TOTAL,
      totalIsEstimate: false,
      nextCursor: 'after-3',
    }))
    .on(userEndpoints.listGroupOptions, () => []);
}

/** Menu items are found with `hidden: true`: happy-dom lays nothing out, so Mantine keeps dropdowns hidden. */
const POPOVER = { hidden: true } as const;

function renderList(route = '/users/list') {
  return renderRoutes([{ path: '/users/list', element: <UsersList /> }], { route, session: makeSession() });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('users list: select every matching user', { timeout: 20_000 }, () => {
  it('offers all matching users once the page is selected, confirms the count, sends the search and shows progress', async () => {
    let progress = 0;
    const api = fakeUsersApi()
      .on(userBulkEndpoints.bulkUsers, () => makeJob({ match: { q: 'tester' } }))
      .on(userBulkEndpoints.bulkJob, () =>
        progress < TOTAL
          ? makeJob({ match: { q: 'tester' }, processed: progress })
          : makeJob({
              match: { q: 'tester' },
              status: 'completed',
              processed: TOTAL,
              changed: TOTAL,
              finishedAt: '2026-03-01T10:00:09.000Z',
            }),
      );
    const { user } = renderList('/users/list?q=tester');
    await screen.findByRole('link', { name: 'Alice Tester' });
    // Part of the page selected: no offer yet.
    await user.click(screen.getByRole('checkbox', { name: 'Select Alice Tester' }));
    expect(screen.queryByRole('button', { name: /Select all .* matching users/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select all users on this page' }));
    expect(screen.getByText('All 3 on this page are selected.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Select all 12,345 matching users' }));
    expect(screen.getByText('All 12,345 matching users are selected.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear selection' })).toBeInTheDocument();
    expect(screen.getByText('12,345 selected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Bulk actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Enable private access', ...POPOVER }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable private access?' });
    expect(within(dialog).getByText('This changes all 12,345 users matching “tester”.')).toBeInTheDocument();
    // Nothing goes out before the confirmation.
    expect(api.calls(userBulkEndpoints.bulkUsers)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Change 12,345 users' }));

    const bar = await screen.findByRole('progressbar', { name: 'Bulk change progress' }, { timeout: 3000 });
    const [bulk] = api.calls(userBulkEndpoints.bulkUsers);
    expect(bulk.body).toEqual({ match: { q: 'tester' }, action: 'enablePrivateAccess' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    progress = 4115;
    expect(
      await screen.findByText('4,115 of 12,345 users processed', undefined, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Bulk change progress' })).toHaveAttribute(
      'aria-valuenow',
      '33',
    );
    const listsBefore = api.calls(userEndpoints.listUsers).length;

    progress = TOTAL;
    expect(
      await screen.findByText('12,345 users updated.', undefined, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    await waitFor(() => expect(api.calls(userEndpoints.listUsers).length).toBeGreaterThan(listsBefore));
  });

  it('deletes every user of the tenant after a confirmation that states the count', async () => {
    const api = fakeUsersApi().on(userBulkEndpoints.bulkDeleteUsers, () =>
      makeJob({ action: 'delete', status: 'completed', processed: TOTAL, changed: TOTAL }),
    );
    const { user } = renderList();
    await screen.findByRole('link', { name: 'Alice Tester' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all users on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 12,345 users' }));
    expect(screen.getByText('All 12,345 users are selected.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete users?' });
    expect(
      within(dialog).getByText('All 12,345 users of this tenant will be deleted. This cannot be undone.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete 12,345 users' }));

    expect(await screen.findByText('12,345 users deleted.')).toBeInTheDocument();
    const [sent] = api.calls(userBulkEndpoints.bulkDeleteUsers);
    expect(sent.body).toEqual({ match: {} });
    expect(api.calls(userEndpoints.deleteUsers)).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText(/are selected/)).not.toBeInTheDocument();
  });

  it('goes back to the page selection when a row is unchecked, and clears it on request', async () => {
    const api = fakeUsersApi().on(userBulkEndpoints.bulkUsers, () =>
      makeJob({ match: null, status: 'completed', matched: 2, processed: 2, changed: 2 }),
    );
    const { user } = renderList();
    await screen.findByRole('link', { name: 'Alice Tester' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all users on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 12,345 users' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bob Tester' }));
    expect(screen.queryByText(/are selected/)).not.toBeInTheDocument();
    expect(screen.getByText('2 selected')).toBeInTheDocument();

    // Two users of the page: confirmed as the selection, then sent as their ids.
    await user.click(screen.getByRole('button', { name: 'Bulk actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Enable XDR', ...POPOVER }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable XDR?' });
    expect(dialog).toHaveTextContent('This changes the 2 selected users.');
    await user.click(within(dialog).getByRole('button', { name: 'Change 2 users' }));
    expect(await screen.findByText('2 users updated.')).toBeInTheDocument();
    const [bulk] = api.calls(userBulkEndpoints.bulkUsers);
    expect(bulk.body).toEqual({ ids: [PAGE[0].id, PAGE[2].id], action: 'enableXdr' });
    // The confirmation fades out before the next selection (its text would still be in the page).
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('checkbox', { name: 'Select Bob Tester' }));
    await user.click(screen.getByRole('button', { name: 'Select all 12,345 users' }));
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByText(/selected/)).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select Alice Tester' })).not.toBeChecked();
  });

  it('says how far a failed job got', async () => {
    fakeUsersApi().on(userBulkEndpoints.bulkUsers, () =>
      makeJob({
        status: 'failed',
        processed: 5000,
        changed: 5000,
        error: 'error.7',
        action: 'enableXdr',
      }),
    );
    const { user } = renderList();
    await screen.findByRole('link', { name: 'Alice Tester' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all users on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 12,345 users' }));
    await user.click(screen.getByRole('button', { name: 'Bulk actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Enable XDR', ...POPOVER }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable XDR?' });
    expect(within(dialog).getByText('This changes all 12,345 users of this tenant.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Change 12,345 users' }));
    expect(
      await screen.findByText('It stopped after 5,000 of 12,345 users. Run it again to finish.'),
    ).toBeInTheDocument();
  });

  it('names the policy tests a refused job would have broken', async () => {
    fakeUsersApi().on(userBulkEndpoints.bulkUsers, () =>
      makeJob({
        status: 'failed',
        processed: 5000,
        changed: 5000,
        error: 'jobs.policyTestsFailed',
        brokenTests: ['Sales is blocked', 'Interns are allowed'],
        action: 'enableXdr',
      }),
    );
    const { user } = renderList();
    await screen.findByRole('link', { name: 'Alice Tester' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all users on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 12,345 users' }));
    await user.click(screen.getByRole('button', { name: 'Bulk actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Enable XDR', ...POPOVER }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable XDR?' });
    await user.click(within(dialog).getByRole('button', { name: 'Change 12,345 users' }));
    expect(
      await screen.findByText(
        'It stopped after 5,000 of 12,345 users: the rest would break the policy tests Sales is blocked, Interns are allowed, so it was not saved.',
      ),
    ).toBeInTheDocument();
  });
});
