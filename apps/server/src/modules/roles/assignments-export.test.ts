import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { users } from '../../db/schema';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const url = '/api/roles/acme/assignments/export';

let owner: string;
let auditor: string;
let helpdesk: string;
let globexOwner: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  helpdesk = await f.signIn('helpdesk@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
});

describe('GET roles/{tenant}/assignments/export', () => {
  it('requires a session (401)', async () => {
    const res = await f.app.inject({ url });
    expect(res.statusCode).toBe(401);
    expect(res.json().errcode).toBe(1);
  });

  it('answers 403 to a role without roles:view (helpdesk)', async () => {
    expect((await f.app.inject({ url, headers: auth(helpdesk) })).statusCode).toBe(403);
  });

  it("answers 404 for another tenant's assignments", async () => {
    expect((await f.app.inject({ url, headers: auth(globexOwner) })).statusCode).toBe(404);
  });

  it('rejects a too long search with details (400)', async () => {
    const res = await f.app.inject({ url: `${url}?q=${'x'.repeat(201)}`, headers: auth(owner) });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { path: string }) => d.path)).toEqual(['query.q']);
  });

  it('streams the administrators with role and status as CSV, neutralising formulas', async () => {
    const role = await f.app.inject({
      method: 'POST',
      url: '/api/roles/acme',
      headers: auth(owner),
      payload: { name: '@Viewers', description: '', permissions: ['users:view'] },
    });
    expect(role.statusCode).toBe(201);
    const assign = await f.app.inject({
      method: 'PUT',
      url: `/api/roles/acme/assignments/${await userId('billing@acme.test')}`,
      headers: auth(owner),
      payload: { role: null, customRoleId: role.json().id },
    });
    expect(assign.statusCode, assign.body).toBe(200);
    await f.database.db
      .update(users)
      .set({ firstname: '=SUM(A1:A9)', isSuspended: true })
      .where(eq(users.username, 'helpdesk@acme.test'));
    // Invited: no password chosen yet.
    await f.database.db.insert(users).values({
      tenantId: f.acme.id,
      username: 'new@acme.test',
      email: 'new@acme.test',
      firstname: 'New',
      lastname: 'Admin',
      role: 'admin',
      usertype: 1,
    });

    const res = await f.app.inject({ url, headers: auth(auditor) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="role-assignments-acme.csv"');
    expect(res.body).toBe(
      [
        'username,firstname,lastname,role,status',
        'admin@acme.test,admin,Test,owner,active',
        'auditor@acme.test,auditor,Test,auditor,active',
        "billing@acme.test,billing,Test,'@Viewers,active",
        "helpdesk@acme.test,'=SUM(A1:A9),Test,helpdesk,suspended",
        'new@acme.test,New,Admin,admin,invited',
        '',
      ].join('\n'),
    );
    // Only administrators: the end user of the fixture is not listed; other tenants' administrators neither.
    expect(res.body).not.toContain('enduser@acme.test');
    expect(res.body).not.toContain('globex');

    const searched = await f.app.inject({ url: `${url}?q=billing`, headers: auth(owner) });
    expect(searched.body.trim().split('\n')).toHaveLength(2);
    expect(searched.body).toContain('billing@acme.test');
  });
});

async function userId(username: string) {
  const [row] = await f.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  return row.id;
}
