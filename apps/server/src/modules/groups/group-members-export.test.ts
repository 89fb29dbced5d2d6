import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let owner: string;
let auditor: string;
let billing: string;
let globexOwner: string;
let groupId: string;
let globexGroupId: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
  groupId = await createGroup('acme', 'Export members', owner);
  globexGroupId = await createGroup('globex', 'Globex members', globexOwner);
});

async function createGroup(tenant: string, name: string, token: string): Promise<string> {
  const res = await f.app.inject({
    method: 'POST',
    url: `/api/groups/${tenant}`,
    headers: auth(token),
    payload: { name },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

async function createUser(username: string, firstname: string, lastname: string): Promise<string> {
  const res = await f.app.inject({
    method: 'POST',
    url: '/api/subscriber/user/acme',
    headers: auth(owner),
    payload: { username, firstname, lastname },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

describe('GET groups/{tenant}/{id}/members/export', () => {
  const url = () => `/api/groups/acme/${groupId}/members/export`;

  it('requires a session (401)', async () => {
    const res = await f.app.inject({ url: url() });
    expect(res.statusCode).toBe(401);
    expect(res.json().errcode).toBe(1);
  });

  it('answers 403 to a role without groups:view (billing admin)', async () => {
    expect((await f.app.inject({ url: url(), headers: auth(billing) })).statusCode).toBe(403);
  });

  it("answers 404 for another tenant's group and for an unknown group", async () => {
    expect((await f.app.inject({ url: url(), headers: auth(globexOwner) })).statusCode).toBe(404);
    const other = await f.app.inject({
      url: `/api/groups/acme/${globexGroupId}/members/export`,
      headers: auth(owner),
    });
    expect(other.statusCode).toBe(404);
    const unknown = await f.app.inject({
      url: `/api/groups/acme/${UNKNOWN_ID}/members/export`,
      headers: auth(owner),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('rejects a bad order and a bad id with details (400)', async () => {
    const res = await f.app.inject({ url: `${url()}?order=sideways`, headers: auth(owner) });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { path: string }) => d.path)).toEqual(['query.order']);
    const badId = await f.app.inject({
      url: '/api/groups/acme/not-a-uuid/members/export',
      headers: auth(owner),
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().details.map((d: { path: string }) => d.path)).toEqual(['params.id']);
  });

  it('streams the searched members as CSV, neutralising formulas', async () => {
    const amy = await createUser('mexp.amy@acme.test', '=HYPERLINK("x")', 'Amy');
    const zed = await createUser('mexp.zed@acme.test', 'Zed', 'Comma, "quoted"');
    const other = await createUser('other.member@acme.test', 'Other', 'Member');
    const add = await f.app.inject({
      method: 'POST',
      url: `/api/groups/acme/${groupId}/members`,
      headers: auth(owner),
      payload: { userIds: [zed, amy, other] },
    });
    expect(add.statusCode).toBe(200);

    const res = await f.app.inject({ url: `${url()}?q=mexp`, headers: auth(auditor) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="group-members-acme.csv"');
    expect(res.body).toBe(
      [
        'username,fullname,connstatus',
        `mexp.amy@acme.test,"'=HYPERLINK(""x"") Amy",never`,
        'mexp.zed@acme.test,"Zed Comma, ""quoted""",never',
        '',
      ].join('\n'),
    );

    const all = await f.app.inject({ url: `${url()}?order=desc`, headers: auth(owner) });
    expect(
      all.body
        .trim()
        .split('\n')
        .map((line) => line.split(',')[0]),
    ).toEqual(['username', 'other.member@acme.test', 'mexp.zed@acme.test', 'mexp.amy@acme.test']);
  });
});
