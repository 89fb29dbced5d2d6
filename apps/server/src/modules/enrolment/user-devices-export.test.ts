import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const url = '/api/enrolment/acme/users/export';
const ISO = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

let owner: string;
let helpdesk: string;
let billing: string;
let globexOwner: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  helpdesk = await f.signIn('helpdesk@acme.test');
  billing = await f.signIn('billing@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
});

async function createUser(name: string, firstname = name): Promise<string> {
  const res = await f.app.inject({
    method: 'POST',
    url: '/api/subscriber/user/acme',
    headers: auth(owner),
    payload: { username: `${name}@acme.test`, firstname, lastname: 'Device' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** Creates a link for the user and enrols a device with it. */
async function enrolDevice(userId: string, device: { name: string; os: string }, kind = 'link') {
  const link = await f.app.inject({
    method: 'POST',
    url: `/api/enrolment/acme/users/${userId}/link`,
    headers: auth(owner),
    payload: { kind },
  });
  expect(link.statusCode, link.body).toBe(201);
  const res = await f.app.inject({
    method: 'POST',
    url: '/api/enrol',
    payload: { token: link.json().token, device },
  });
  expect(res.statusCode, res.body).toBe(201);
}

describe('GET enrolment/{tenant}/users/export', () => {
  it('requires a session (401)', async () => {
    const res = await f.app.inject({ url });
    expect(res.statusCode).toBe(401);
    expect(res.json().errcode).toBe(1);
  });

  it('answers 403 to a role without devices:view (billing admin)', async () => {
    expect((await f.app.inject({ url, headers: auth(billing) })).statusCode).toBe(403);
  });

  it("answers 404 for another tenant's users", async () => {
    expect((await f.app.inject({ url, headers: auth(globexOwner) })).statusCode).toBe(404);
  });

  it('rejects a bad filter and method with details (400)', async () => {
    const res = await f.app.inject({ url: `${url}?filter=some&method=fax`, headers: auth(owner) });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['query.filter', 'query.method']);
  });

  it('writes one line per device and one for a user without devices, neutralising formulas', async () => {
    const amy = await createUser('dexp.amy', '+Amy');
    await createUser('dexp.bob');
    const cat = await createUser('dexp.cat');
    await enrolDevice(amy, { name: '=HYPERLINK("x")', os: 'windows' });
    await enrolDevice(amy, { name: 'Amy phone', os: 'chrome' }, 'agentless');
    await enrolDevice(cat, { name: 'Cat laptop', os: 'mac' });

    const res = await f.app.inject({ url: `${url}?q=dexp`, headers: auth(helpdesk) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="users-devices-acme.csv"');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('username,fullname,state,device,os,connstatus,enrolledVia,enrolledAt,lastSeenAt');
    expect(lines).toHaveLength(5);
    const amyLines = lines.slice(1, 3).sort();
    expect(amyLines[0]).toMatch(
      new RegExp(
        `^dexp\\.amy@acme\\.test,'\\+Amy Device,enrolled,"'=HYPERLINK\\(""x""\\)",windows,\\w+,link,${ISO},(${ISO})?$`,
      ),
    );
    expect(amyLines[1]).toMatch(
      new RegExp(
        `^dexp\\.amy@acme\\.test,'\\+Amy Device,enrolled,Amy phone,chrome,\\w+,agentless,${ISO},(${ISO})?$`,
      ),
    );
    expect(lines[3]).toBe('dexp.bob@acme.test,dexp.bob Device,not-invited,,,,,,');
    expect(lines[4]).toMatch(
      new RegExp(`^dexp\\.cat@acme\\.test,dexp\\.cat Device,enrolled,Cat laptop,mac,\\w+,link,${ISO},`),
    );

    const without = await f.app.inject({ url: `${url}?q=dexp&filter=without-devices`, headers: auth(owner) });
    expect(without.body.trim().split('\n').slice(1)).toEqual([
      'dexp.bob@acme.test,dexp.bob Device,not-invited,,,,,,',
    ]);

    const agentless = await f.app.inject({
      url: `${url}?q=dexp&method=agentless&filter=with-devices&order=desc`,
      headers: auth(owner),
    });
    const rows = agentless.body.trim().split('\n').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^dexp\.amy@acme\.test,'\+Amy Device,enrolled,Amy phone,chrome,/);
  });
});
