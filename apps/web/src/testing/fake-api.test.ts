import { groupEndpoints, type User, userEndpoints } from '@palisade/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, ContractError, request } from '../lib/api-client';
import { apiError, fakeApi, keysetPage, reply } from './fake-api';

const GROUP = '6f1c2a54-7d0e-4f1b-9a57-0c1d2e3f4a5b';

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

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('fake API', () => {
  it('answers by descriptor with the path params and the query parsed by the contract, and records the call', async () => {
    const api = fakeApi();
    api.on(userEndpoints.listUsers, ({ params, query }) =>
      keysetPage(params.tenant === 'acme' && query.q === 'ali' && query.limit === 50 ? [ALICE] : []),
    );
    const page = await request(userEndpoints.listUsers, {
      params: { tenant: 'acme' },
      query: { q: 'ali', limit: 50 },
    });
    expect(page.items).toEqual([ALICE]);
    const [call] = api.calls(userEndpoints.listUsers);
    // What the server would see: defaults filled in, numbers parsed.
    expect(call.query).toMatchObject({ q: 'ali', limit: 50, offset: 0, sort: 'username', order: 'asc' });
    expect(call.url.searchParams.get('limit')).toBe('50');
    expect(call.status).toBe(200);
  });

  it('prefers the literal path: /groups/:tenant/:id/members is not /groups/:tenant/:id', async () => {
    const api = fakeApi();
    api.on(groupEndpoints.listGroupMembers, ({ params }) =>
      keysetPage([{ id: ALICE.id, username: params.id, fullname: 'Alice', connstatus: 'never' as const }]),
    );
    api.on(groupEndpoints.getGroup, () => apiError('not_found'));
    const members = await request(groupEndpoints.listGroupMembers, { params: { tenant: 'acme', id: GROUP } });
    expect(members.items[0].username).toBe(GROUP);
    expect(api.calls(groupEndpoints.getGroup)).toHaveLength(0);
  });

  it('builds error envelopes from the contracts catalogue', async () => {
    const api = fakeApi();
    api.on(userEndpoints.deleteUsers, () =>
      apiError('validation_failed', { details: [{ path: 'body.ids', message: 'validation.required' }] }),
    );
    const refused = request(userEndpoints.deleteUsers, {
      params: { tenant: 'acme' },
      body: { ids: [ALICE.id] },
    });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      errcode: 2,
      code: 'validation_failed',
      details: [{ path: 'body.ids', message: 'validation.required' }],
    });
    expect(api.calls(userEndpoints.deleteUsers)[0].body).toEqual({ ids: [ALICE.id] });
  });

  it('answers unknown requests 404 and keeps them, so a test can assert there were none', async () => {
    const api = fakeApi();
    api.on(userEndpoints.getUser, () => ALICE);
    await expect(
      request(userEndpoints.listUsers, { params: { tenant: 'acme' }, silent: true }),
    ).rejects.toMatchObject({ status: 404, code: 'not_found' });
    expect(api.unhandled.map((call) => call.summary)).toEqual(['GET /api/subscriber/user/acme']);
  });

  it('fails the test on an answer that drifted from the contract, naming the field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi();
    const { email: _email, ...withoutEmail } = ALICE;
    api.on(userEndpoints.getUser, () => reply(withoutEmail));
    // The client checks it too, in tests and development.
    await expect(
      request(userEndpoints.getUser, { params: { tenant: 'acme', id: ALICE.id } }),
    ).rejects.toBeInstanceOf(ContractError);
    expect(api.acknowledge(/answer to GET \/subscriber\/user\/:tenant\/:id .*does not match/)).toMatch(
      /- email: Invalid input: expected string/,
    );
  });

  it('refuses a request that breaks its contract, as the server would, and fails the test', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi();
    const handler = vi.fn(() => ({ deleted: 1 }));
    api.on(userEndpoints.deleteUsers, handler);
    await expect(
      request(userEndpoints.deleteUsers, { params: { tenant: 'acme' }, body: { ids: ['not-a-uuid'] } }),
    ).rejects.toMatchObject({ status: 400, details: [{ path: 'body.ids.0' }] });
    expect(handler).not.toHaveBeenCalled();
    expect(api.acknowledge(/a request its contract refuses/)).toMatch(/body\.ids\.0/);
  });
});
