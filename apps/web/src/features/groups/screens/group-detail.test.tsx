import type { Group, GroupMember, Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderRoutes } from '../../../testing/render';
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
const BERT_USER = {
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
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

interface Sent {
  method: string;
  url: URL;
  body: unknown;
}

function stubApi() {
  const sent: Sent[] = [];
  const base = `/api/groups/acme/${GROUP.id}`;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url);
      const text = await input.clone().text();
      const body = text ? JSON.parse(text) : undefined;
      sent.push({ method: input.method, url, body });
      if (input.method === 'GET' && url.pathname === base) return jsonResponse(GROUP);
      if (input.method === 'GET' && url.pathname === `${base}/members`) {
        return jsonResponse({ items: [ANNA], total: 1 });
      }
      if (input.method === 'POST' && url.pathname === `${base}/members`) {
        return jsonResponse({ added: body.userIds.length });
      }
      if (input.method === 'DELETE' && url.pathname === `${base}/members`) {
        return jsonResponse({ removed: body.userIds.length });
      }
      if (input.method === 'GET' && url.pathname === '/api/subscriber/user/acme') {
        // The picker's first look (no search) finds nobody; the search for "bert" finds Bert.
        return url.searchParams.get('q') === 'bert'
          ? jsonResponse({ items: [BERT_USER], total: 1 })
          : jsonResponse({ items: [], total: 0 });
      }
      if (input.method === 'PUT' && url.pathname === base) return jsonResponse({ ...GROUP, ...body });
      return jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
    }),
  );
  return sent;
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
    stubApi();
    renderDetail();
    expect(await screen.findByRole('heading', { level: 1, name: 'Engineering' })).toBeInTheDocument();
    expect(screen.getByText('Builds the product')).toBeInTheDocument();
    const members = screen.getByRole('region', { name: 'Members' });
    const anna = await within(members).findByRole('link', { name: 'Anna Arm' });
    expect(anna).toHaveAttribute('href', `/users/${ANNA.id}`);
    expect(within(members).getByText('Connected')).toBeInTheDocument();
  });

  it('adds users found by a server search', async () => {
    const sent = stubApi();
    const { user } = renderDetail();
    await screen.findByRole('link', { name: 'Anna Arm' });
    await user.type(screen.getByRole('combobox', { name: 'Add members' }), 'bert');
    // The dropdown's open transition never finishes in happy-dom, so its options count as hidden.
    await user.click(
      await screen.findByRole('option', { name: 'Bert Bold (bert@acme.example)', hidden: true }),
    );
    const searches = sent.filter((s) => s.url.pathname === '/api/subscriber/user/acme');
    expect(searches.some((s) => s.url.searchParams.get('q') === 'bert')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Add to group' }));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST')).toBe(true));
    expect(sent.find((s) => s.method === 'POST')!.body).toEqual({ userIds: [BERT_USER.id] });
    expect(await screen.findByText('1 member added.')).toBeInTheDocument();
  });

  it('removes the selected members', async () => {
    const sent = stubApi();
    const { user } = renderDetail();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Anna Arm' }));
    await user.click(screen.getByRole('button', { name: 'Remove from group' }));
    await waitFor(() => expect(sent.some((s) => s.method === 'DELETE')).toBe(true));
    expect(sent.find((s) => s.method === 'DELETE')!.body).toEqual({ userIds: [ANNA.id] });
    expect(await screen.findByText('1 member removed.')).toBeInTheDocument();
  });

  it('offers no editing to a read-only role', async () => {
    stubApi();
    renderDetail(makeSession({ role: 'auditor' }));
    await screen.findByRole('link', { name: 'Anna Arm' });
    expect(screen.queryByRole('combobox', { name: 'Add members' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
