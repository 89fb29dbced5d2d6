import { FEATURE_FLAGS, type Session, type User, userEndpoints } from '@palisade/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeAnswer, fakeApi, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as UsersList } from './users-list';

const ENGINEERING = '6f1c2a54-7d0e-4f1b-9a57-0c1d2e3f4a5b';
const SALES = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

function makeUser(overrides: Partial<User> & Pick<User, 'id' | 'username' | 'firstname' | 'lastname'>): User {
  return {
    userid: overrides.id,
    shortname: overrides.username.split('@')[0],
    fullname: `${overrides.firstname} ${overrides.lastname}`,
    email: overrides.username,
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
    ...overrides,
  };
}

const ALICE = makeUser({
  id: '11111111-1111-4111-8111-111111111111',
  username: 'alice@acme.example',
  firstname: 'Alice',
  lastname: 'Able',
  groups: [ENGINEERING, SALES],
  connstatus: 'connected',
  isprvaccess: true,
  suci: 'suci-0-001-01-0000-0-0-0123456789',
  imsi: '001010123456789',
});
const BOB = makeUser({
  id: '22222222-2222-4222-8222-222222222222',
  username: 'bob@acme.example',
  firstname: 'Bob',
  lastname: 'Baker',
  connstatus: 'disconnected',
  isxdrenabled: true,
  suci: 'suci-0-001-01-0000-1-1-9a3c5e7f',
  imsi: null,
});
const CAROL = makeUser({
  id: '33333333-3333-4333-8333-333333333333',
  username: 'carol@acme.example',
  firstname: 'Carol',
  lastname: 'Cole',
});

type ListAnswer = FakeAnswer<typeof userEndpoints.listUsers>;

/** The fake API of the users list: `list` answers the pages; the group names and delete answer like the server. */
function fakeUsersApi(list: (url: URL) => ListAnswer) {
  const api = fakeApi()
    .on(userEndpoints.listUsers, ({ url }) => list(url))
    .on(userEndpoints.listGroupOptions, () => [
      { id: ENGINEERING, name: 'Engineering' },
      { id: SALES, name: 'Sales' },
    ])
    .on(userEndpoints.deleteUsers, ({ body }) => ({ deleted: body.ids.length }));
  return {
    api,
    lists: () => api.calls(userEndpoints.listUsers),
    deletes: () => api.calls(userEndpoints.deleteUsers),
  };
}

function renderList(session: Session = makeSession(), route = '/users/list') {
  return renderRoutes(
    [
      { path: '/users/list', element: <UsersList /> },
      { path: '/users/:id', element: <p>user detail</p> },
      { path: '/users/add', element: <p>add form</p> },
    ],
    { route, session },
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('users list', () => {
  it('renders the rows of the page with group names, status, flags and the total, each value once', async () => {
    const api = fakeUsersApi(() => keysetPage([ALICE, BOB], 2));
    renderList();

    const alice = (await screen.findByRole('link', { name: 'Alice Able' })).closest('tr')!;
    // The username is the sign-in e-mail: shown once, not again as e-mail and as short name.
    expect(within(alice).getAllByText(/alice@acme\.example/)).toHaveLength(1);
    expect(within(alice).queryByText('alice')).not.toBeInTheDocument();
    expect(await within(alice).findByText('Engineering, Sales')).toBeInTheDocument();
    expect(within(alice).getByText('Connected')).toBeInTheDocument();
    expect(within(alice).getByRole('img', { name: 'Private access: yes' })).toBeInTheDocument();
    expect(within(alice).getByRole('img', { name: 'XDR: no' })).toBeInTheDocument();
    // The IMSI is a column to choose (see the column chooser test).
    expect(within(alice).queryByText('001010123456789')).not.toBeInTheDocument();

    const bob = screen.getByRole('link', { name: 'Bob Baker' }).closest('tr')!;
    expect(within(bob).getByText('Disconnected')).toBeInTheDocument();
    expect(within(bob).getByRole('img', { name: 'XDR: yes' })).toBeInTheDocument();

    expect(screen.getByText('2 users')).toBeInTheDocument();
    const query = api.lists()[0].url.searchParams;
    expect(Object.fromEntries(query)).toEqual({ limit: '25', offset: '0', sort: 'username', order: 'asc' });
    expect(api.api.unhandled).toEqual([]);
  });

  it('shows the columns an administrator chooses, kept for them and this tenant only', async () => {
    fakeUsersApi(() => keysetPage([ALICE, BOB]));
    const { user, unmount } = renderList();
    await screen.findByRole('link', { name: 'Alice Able' });
    expect(screen.queryByRole('columnheader', { name: 'IMSI' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Columns' }));
    // happy-dom never finishes the popover's enter transition, so its content counts as hidden.
    const chooser = await screen.findByRole('group', { name: 'Columns shown', hidden: true });
    await user.click(within(chooser).getByRole('checkbox', { name: 'IMSI', hidden: true }));
    await user.click(within(chooser).getByRole('checkbox', { name: 'Created', hidden: true }));
    const alice = screen.getByRole('link', { name: 'Alice Able' }).closest('tr')!;
    expect(within(alice).getByText('001010123456789')).toBeInTheDocument();
    expect(screen.getByText('Concealed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Created/ })).not.toBeInTheDocument();
    unmount();

    // The same administrator in the same tenant gets them again…
    renderList();
    expect(await screen.findByText('001010123456789')).toBeInTheDocument();
    cleanup();
    // …another administrator, or this one in another tenant, starts from the defaults.
    renderList(makeSession({ userid: 'u-other' }));
    await screen.findByRole('link', { name: 'Alice Able' });
    expect(screen.queryByText('001010123456789')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Created/ })).toBeInTheDocument();
    cleanup();
    renderList(makeSession({ tenant: 'globex' }));
    await screen.findByRole('link', { name: 'Alice Able' });
    expect(screen.queryByText('001010123456789')).not.toBeInTheDocument();
  });

  it('shows the XDR column, also in the chooser, while the working tenant has XDR (users.xdrColumn)', async () => {
    fakeUsersApi(() => keysetPage([ALICE, BOB]));
    const { user } = renderList();
    await screen.findByRole('link', { name: 'Alice Able' });
    expect(screen.getByRole('columnheader', { name: 'XDR' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const chooser = await screen.findByRole('group', { name: 'Columns shown', hidden: true });
    expect(within(chooser).getByRole('checkbox', { name: 'XDR', hidden: true })).toBeInTheDocument();
  });

  it('has no XDR column, nor a choice of it, while the working tenant has no XDR (users.xdrColumn)', async () => {
    fakeUsersApi(() => keysetPage([ALICE, BOB]));
    const { user } = renderList(makeSession({ features: FEATURE_FLAGS.filter((flag) => flag !== 'xdr') }));
    const bob = (await screen.findByRole('link', { name: 'Bob Baker' })).closest('tr')!;
    expect(screen.queryByRole('columnheader', { name: 'XDR' })).not.toBeInTheDocument();
    expect(within(bob).queryByRole('img', { name: /^XDR/ })).not.toBeInTheDocument();
    expect(within(bob).getByRole('img', { name: 'Private access: no' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const chooser = await screen.findByRole('group', { name: 'Columns shown', hidden: true });
    expect(
      within(chooser).getByRole('checkbox', { name: 'Private access', hidden: true }),
    ).toBeInTheDocument();
    expect(within(chooser).queryByRole('checkbox', { name: 'XDR', hidden: true })).not.toBeInTheDocument();
  });

  it('says "about" wherever it shows an estimated total: heading, pages and select-all', async () => {
    fakeUsersApi(() => ({
      items: [ALICE, BOB, CAROL],
      total: 123_456,
      totalIsEstimate: true,
      nextCursor: 'c3',
    }));
    const { user } = renderList();
    expect(await screen.findByText('About 123,456 users')).toBeInTheDocument();
    expect(screen.getByText('1–3 of about 123,456')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select all users on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all users (about 123,456)' }));
    expect(screen.getByText('All users (about 123,456) are selected.')).toBeInTheDocument();
    expect(screen.getByText('About 123,456 selected')).toBeInTheDocument();
  });

  it('searches with q after typing stops, back on page 1', async () => {
    const api = fakeUsersApi((url) =>
      url.searchParams.get('q') === 'bob' ? keysetPage([BOB], 1) : keysetPage([ALICE, BOB], 60),
    );
    const { user, router } = renderList(makeSession(), '/users/list?page=2');
    await screen.findByRole('link', { name: 'Alice Able' });
    expect(api.lists()[0].url.searchParams.get('offset')).toBe('25');

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'bob');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Alice Able' })).not.toBeInTheDocument());

    const searches = api.lists().filter((s) => s.url.searchParams.has('q'));
    // Debounced: one request for the whole word, not one per key.
    expect(searches).toHaveLength(1);
    expect(searches[0].url.searchParams.get('q')).toBe('bob');
    expect(searches[0].url.searchParams.get('offset')).toBe('0');
    expect(router.state.location.search).toBe('?q=bob');
    expect(screen.getByText('1 user')).toBeInTheDocument();
  });

  it('sorts on the server: a new column starts ascending, a second click turns it around', async () => {
    const api = fakeUsersApi(() => keysetPage([ALICE, BOB], 2));
    const { user, router } = renderList(makeSession(), '/users/list?sort=createdAt&order=desc');
    await screen.findByRole('link', { name: 'Alice Able' });

    // Sortable headers are buttons (mantine-datatable), reachable by keyboard.
    await user.click(screen.getByRole('button', { name: /^Full name/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=fullname'));
    await user.click(screen.getByRole('button', { name: /^Full name/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=fullname&order=desc'));

    await waitFor(() =>
      expect(
        api.lists().map((s) => `${s.url.searchParams.get('sort')} ${s.url.searchParams.get('order')}`),
      ).toEqual(['createdAt desc', 'fullname asc', 'fullname desc']),
    );
  });

  it('deletes the selected users only after confirmation', async () => {
    const api = fakeUsersApi(() => keysetPage([ALICE, BOB, CAROL], 3));
    const { user } = renderList();
    await screen.findByRole('link', { name: 'Alice Able' });

    await user.click(screen.getByRole('checkbox', { name: 'Select Alice Able' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Carol Cole' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delete users?' });
    expect(within(dialog).getByText('Alice Able (alice@acme.example)')).toBeInTheDocument();
    expect(within(dialog).getByText('Carol Cole (carol@acme.example)')).toBeInTheDocument();
    expect(api.deletes()).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.deletes()).toHaveLength(1));
    const [deletion] = api.deletes();
    expect(deletion.params).toEqual({ tenant: 'acme' });
    expect(deletion.body).toEqual({ ids: [ALICE.id, CAROL.id] });
    expect(await screen.findByText('2 users deleted.')).toBeInTheDocument();
    // The list is fetched again after the delete.
    await waitFor(() => expect(api.lists().length).toBeGreaterThanOrEqual(2));
    expect(api.api.unhandled).toEqual([]);
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const api = fakeUsersApi(() => keysetPage([ALICE, BOB], 2));
    const { user } = renderList();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Bob Baker' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.deletes()).toHaveLength(0);
  });

  it('hides add, copy and selection from a role without those rights', async () => {
    fakeUsersApi(() => keysetPage([ALICE], 1));
    renderList(makeSession({ role: 'auditor' }));
    await screen.findByRole('link', { name: 'Alice Able' });
    expect(screen.queryByRole('link', { name: 'Add user' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Copy Alice Able' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('links to add and to each copy for a role that may create', async () => {
    fakeUsersApi(() => keysetPage([ALICE], 1));
    renderList();
    expect(await screen.findByRole('link', { name: 'Copy Alice Able' })).toHaveAttribute(
      'href',
      `/users/${ALICE.id}/copy`,
    );
    expect(screen.getByRole('link', { name: 'Add user' })).toHaveAttribute('href', '/users/add');
  });

  it('says when there are no users yet', async () => {
    fakeUsersApi(() => keysetPage([], 0));
    renderList();
    expect(await screen.findByText('No users yet.')).toBeInTheDocument();
  });

  it('shows a load failure with a retry that loads the page', async () => {
    let calls = 0;
    fakeUsersApi(() => {
      calls += 1;
      return calls === 1 ? apiError('forbidden') : keysetPage([ALICE], 1);
    });
    const { user } = renderList();
    expect(await screen.findByText('Your role does not allow this.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Alice Able' })).toBeInTheDocument();
  });
});
