import {
  type Group,
  type GroupMember,
  groupEndpoints,
  type Session,
  type User,
  userEndpoints,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as GroupDetail } from './group-detail';

const GROUP: Group = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Engineering',
  description: 'Builds the product',
  memberCount: 1,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};
const ANNA: GroupMember = {
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  username: 'anna@acme.example',
  fullname: 'Anna Arm',
  connstatus: 'connected',
};
const BERT_USER: User = {
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  userid: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  username: 'bert@acme.example',
  shortname: 'bert',
  firstname: 'Bert',
  lastname: 'Bold',
  fullname: 'Bert Bold',
  email: 'bert@acme.example',
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

/** The fake API of one group: its members, the user search of the member picker, add, remove and edit. */
function fakeGroupApi() {
  return (
    fakeApi()
      .on(groupEndpoints.getGroup, () => GROUP)
      .on(groupEndpoints.listGroupMembers, () => keysetPage([ANNA]))
      .on(groupEndpoints.addGroupMembers, ({ body }) => ({ added: body.userIds.length }))
      .on(groupEndpoints.removeGroupMembers, ({ body }) => ({ removed: body.userIds.length }))
      // The picker's first look (no search) finds nobody; the search for "bert" finds Bert.
      .on(userEndpoints.listUsers, ({ query }) => keysetPage(query.q === 'bert' ? [BERT_USER] : []))
      .on(groupEndpoints.updateGroup, ({ body }) => ({ ...GROUP, ...body }))
  );
}

function renderDetail(session: Session = makeSession()) {
  return renderRoutes(
    [
      { path: '/groups/:id', element: <GroupDetail /> },
      { path: '/users/groups', element: <p>groups list</p> },
    ],
    { route: `/groups/${GROUP.id}`, session },
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('group detail', () => {
  it('shows the group and its members with the connection status as text', async () => {
    const api = fakeGroupApi();
    renderDetail();
    expect(await screen.findByRole('heading', { level: 1, name: 'Engineering' })).toBeInTheDocument();
    expect(screen.getByText('Builds the product')).toBeInTheDocument();
    const members = screen.getByRole('region', { name: 'Members' });
    const anna = await within(members).findByRole('link', { name: 'Anna Arm' });
    expect(anna).toHaveAttribute('href', `/users/${ANNA.id}`);
    expect(within(members).getByText('Connected')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('adds users found by a server search', async () => {
    const api = fakeGroupApi();
    const { user } = renderDetail();
    await screen.findByRole('link', { name: 'Anna Arm' });
    await user.type(screen.getByRole('combobox', { name: 'Add members' }), 'bert');
    // The dropdown's open transition never finishes in happy-dom, so its options count as hidden.
    await user.click(
      await screen.findByRole('option', { name: 'Bert Bold (bert@acme.example)', hidden: true }),
    );
    const searches = api.calls(userEndpoints.listUsers);
    expect(searches.some((call) => call.query.q === 'bert')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Add to group' }));
    await waitFor(() => expect(api.calls(groupEndpoints.addGroupMembers)).toHaveLength(1));
    expect(api.calls(groupEndpoints.addGroupMembers)[0].body).toEqual({ userIds: [BERT_USER.id] });
    expect(await screen.findByText('1 member added.')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('removes the selected members', async () => {
    const api = fakeGroupApi();
    const { user } = renderDetail();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Anna Arm' }));
    await user.click(screen.getByRole('button', { name: 'Remove from group' }));
    await waitFor(() => expect(api.calls(groupEndpoints.removeGroupMembers)).toHaveLength(1));
    expect(api.calls(groupEndpoints.removeGroupMembers)[0].body).toEqual({ userIds: [ANNA.id] });
    expect(await screen.findByText('1 member removed.')).toBeInTheDocument();
  });

  it('offers no editing to a read-only role', async () => {
    fakeGroupApi();
    renderDetail(makeSession({ role: 'auditor' }));
    await screen.findByRole('link', { name: 'Anna Arm' });
    expect(screen.queryByRole('combobox', { name: 'Add members' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
