import { CONFIG_FLAGS, type Group, groupEndpoints, type Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeAnswer, fakeApi, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as GroupsList } from './groups-list';

function makeGroup(overrides: Partial<Group> & Pick<Group, 'id' | 'name'>): Group {
  return {
    description: '',
    memberCount: 0,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const ENGINEERING = makeGroup({
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Engineering',
  description: 'Builds the product',
  memberCount: 1234,
});
const SALES = makeGroup({ id: '22222222-2222-4222-8222-222222222222', name: 'Sales', memberCount: 3 });
const SUPPORT = makeGroup({ id: '33333333-3333-4333-8333-333333333333', name: 'Support' });

type ListAnswer = FakeAnswer<typeof groupEndpoints.listGroups>;

/** The fake API of the groups list: `list` answers the pages; usage and delete answer like the server. */
function fakeGroupsApi(list: (url: URL) => ListAnswer, usage: Record<string, number> = {}) {
  const api = fakeApi()
    .on(groupEndpoints.listGroups, ({ url }) => list(url))
    .on(groupEndpoints.getGroupUsage, ({ params }) => ({ members: usage[params.id] ?? 0, references: [] }))
    .on(groupEndpoints.deleteGroups, ({ body }) => ({ deleted: body.ids.length }));
  return {
    api,
    lists: () => api.calls(groupEndpoints.listGroups),
    deletes: () => api.calls(groupEndpoints.deleteGroups),
  };
}

function renderList(session: Session = makeSession(), route = '/users/groups') {
  return renderRoutes(
    [
      { path: '/users/groups', element: <GroupsList /> },
      { path: '/users/groups/add', element: <p>add form</p> },
      { path: '/groups/:id', element: <p>group detail</p> },
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

describe('groups list', () => {
  it('renders the page with member counts, links and the total, asking for the first page by name', async () => {
    const api = fakeGroupsApi(() => keysetPage([ENGINEERING, SALES], 2));
    renderList();

    const link = await screen.findByRole('link', { name: 'Engineering' });
    expect(link).toHaveAttribute('href', `/groups/${ENGINEERING.id}`);
    const row = link.closest('tr')!;
    expect(within(row).getByText('Builds the product')).toBeInTheDocument();
    expect(within(row).getByText('1,234')).toBeInTheDocument();
    expect(screen.getByText('2 groups')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add group' })).toHaveAttribute('href', '/users/groups/add');
    expect(screen.getByRole('link', { name: 'Copy Sales' })).toHaveAttribute(
      'href',
      `/groups/${SALES.id}/copy`,
    );
    expect(Object.fromEntries(api.lists()[0].url.searchParams)).toEqual({
      limit: '25',
      offset: '0',
      sort: 'name',
      order: 'asc',
    });
  });

  it('turns pages after the previous page’s cursor without a new count, saying "about" for an estimate', async () => {
    const groups = (from: number) =>
      Array.from({ length: 25 }, (_, i) =>
        makeGroup({
          id: `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`,
          name: `G${from + i}`,
        }),
      );
    const api = fakeGroupsApi((url) =>
      url.searchParams.get('cursor')
        ? { items: groups(25), total: null, totalIsEstimate: false, nextCursor: 'after-50' }
        : { items: groups(0), total: 123_456, totalIsEstimate: true, nextCursor: 'after-25' },
    );
    const { user } = renderList();
    expect(await screen.findByText('1–25 of about 123,456')).toBeInTheDocument();
    // The heading says "about" too.
    expect(screen.getByText('About 123,456 groups')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('26–50 of about 123,456')).toBeInTheDocument();
    const second = api.lists()[1].url.searchParams;
    expect(second.get('cursor')).toBe('after-25');
    expect(second.get('withTotal')).toBe('false');
    expect(second.get('offset')).toBe('25');
  });

  it('searches with q after typing stops, back on page 1', async () => {
    const api = fakeGroupsApi((url) =>
      url.searchParams.get('q') === 'sal' ? keysetPage([SALES], 1) : keysetPage([ENGINEERING, SALES], 60),
    );
    const { user, router } = renderList(makeSession(), '/users/groups?page=2');
    await screen.findByRole('link', { name: 'Engineering' });
    expect(api.lists()[0].url.searchParams.get('offset')).toBe('25');

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'sal');
    // Debounce, request and render: generous on a busy machine.
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Engineering' })).not.toBeInTheDocument(), {
      timeout: 3000,
    });
    const searches = api.lists().filter((s) => s.url.searchParams.has('q'));
    expect(searches).toHaveLength(1);
    expect(searches[0].url.searchParams.get('offset')).toBe('0');
    expect(router.state.location.search).toBe('?q=sal');
    expect(screen.getByText('1 group')).toBeInTheDocument();
  });

  it('sorts by member count on the server, a second click turning it around', async () => {
    const api = fakeGroupsApi(() => keysetPage([ENGINEERING, SALES], 2));
    const { user, router } = renderList();
    await screen.findByRole('link', { name: 'Engineering' });

    await user.click(screen.getByRole('button', { name: /^Members/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=memberCount'));
    await user.click(screen.getByRole('button', { name: /^Members/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=memberCount&order=desc'));
    await waitFor(() =>
      expect(
        api.lists().map((s) => `${s.url.searchParams.get('sort')} ${s.url.searchParams.get('order')}`),
      ).toEqual(['name asc', 'memberCount asc', 'memberCount desc']),
    );
  });

  it('asks where the selected groups are used, says how many members lose them, then deletes', async () => {
    const api = fakeGroupsApi(() => keysetPage([ENGINEERING, SALES, SUPPORT], 3), {
      [ENGINEERING.id]: 4,
      [SALES.id]: 3,
    });
    const { user } = renderList();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Engineering' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Sales' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 groups?' });
    expect(await within(dialog).findByText('7 memberships will be removed from users.')).toBeInTheDocument();
    expect(within(dialog).getByText('Engineering: 4 members')).toBeInTheDocument();
    expect(within(dialog).getByText('Sales: 3 members')).toBeInTheDocument();
    const usageCalls = api.api.calls(groupEndpoints.getGroupUsage);
    expect(usageCalls.map((call) => call.params.id).sort()).toEqual([ENGINEERING.id, SALES.id].sort());
    expect(api.deletes()).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.deletes()).toHaveLength(1));
    expect(api.deletes()[0].body).toEqual({ ids: [ENGINEERING.id, SALES.id] });
    expect(await screen.findByText('2 groups deleted.')).toBeInTheDocument();
    await waitFor(() => expect(api.lists().length).toBeGreaterThanOrEqual(2));
  });

  it('names the members one group would lose, and sends nothing when cancelled', async () => {
    const api = fakeGroupsApi(() => keysetPage([SALES], 1), { [SALES.id]: 1 });
    const { user } = renderList();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Sales' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete group?' });
    expect(await within(dialog).findByText('1 member will lose this group.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.deletes()).toHaveLength(0);
  });

  it('hides add, copy and selection from a read-only role', async () => {
    fakeGroupsApi(() => keysetPage([SALES], 1));
    renderList(makeSession({ role: 'auditor' }));
    await screen.findByRole('link', { name: 'Sales' });
    expect(screen.queryByRole('link', { name: 'Add group' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Copy Sales' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('hides copy while the workspace configuration does not allow copying', async () => {
    fakeGroupsApi(() => keysetPage([SALES], 1));
    renderList(makeSession({ configurations: { ...CONFIG_FLAGS, copyAllowed: false } }));
    await screen.findByRole('link', { name: 'Sales' });
    expect(screen.queryByRole('link', { name: 'Copy Sales' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add group' })).toBeInTheDocument();
  });

  it('says when there are no groups yet', async () => {
    fakeGroupsApi(() => keysetPage([], 0));
    renderList();
    expect(await screen.findByText('No groups yet.')).toBeInTheDocument();
  });

  it('says when no group matches the search', async () => {
    fakeGroupsApi(() => keysetPage([], 0));
    renderList(makeSession(), '/users/groups?q=zzz');
    expect(await screen.findByText('No groups match your search.')).toBeInTheDocument();
  });

  it('shows a load failure with a retry that loads the page', async () => {
    let calls = 0;
    fakeGroupsApi(() => {
      calls += 1;
      return calls === 1 ? apiError('forbidden') : keysetPage([SALES], 1);
    });
    const { user } = renderList();
    expect(await screen.findByText('Your role does not allow this.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Sales' })).toBeInTheDocument();
  });
});
