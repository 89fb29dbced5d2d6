import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { users } from '../../db/schema';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const viewer = {
  name: 'User viewer',
  description: 'Looks, never touches',
  permissions: ['users:view', 'dashboard:view'],
};

async function userId(username: string) {
  const [row] = await f.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  return row.id;
}

describe('custom roles', () => {
  it('GET/POST roles: 401, 403, other tenant 404, 400 and the happy path', async () => {
    expect((await f.app.inject({ url: '/api/roles/acme' })).statusCode).toBe(401);
    const helpdesk = await f.signIn('helpdesk@acme.test');
    expect((await f.app.inject({ url: '/api/roles/acme', headers: auth(helpdesk) })).statusCode).toBe(403);
    const auditor = await f.signIn('auditor@acme.test');
    expect(
      (
        await f.app.inject({
          method: 'POST',
          url: '/api/roles/acme',
          headers: auth(auditor),
          payload: viewer,
        })
      ).statusCode,
    ).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect(
      (await f.app.inject({ method: 'POST', url: '/api/roles/acme', headers: auth(globex), payload: viewer }))
        .statusCode,
    ).toBe(404);

    const admin = await f.signIn('admin@acme.test');
    const bad = await f.app.inject({
      method: 'POST',
      url: '/api/roles/acme',
      headers: auth(admin),
      payload: { name: ' ', permissions: ['users:fly'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.name', 'body.permissions.0']);

    const created = await f.app.inject({
      method: 'POST',
      url: '/api/roles/acme',
      headers: auth(admin),
      payload: { ...viewer, permissions: ['users:view', 'dashboard:view', 'users:view'] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'User viewer',
      permissions: ['dashboard:view', 'users:view'],
      assigned: 0,
    });
    const dup = await f.app.inject({
      method: 'POST',
      url: '/api/roles/acme',
      headers: auth(admin),
      payload: { ...viewer, name: 'user VIEWER' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().details).toEqual([{ path: 'body.name', message: 'validation.roleNameTaken' }]);

    const list = await f.app.inject({ url: '/api/roles/acme', headers: auth(auditor) });
    expect(list.json().custom.map((r: { name: string }) => r.name)).toEqual(['User viewer']);
    expect(list.json().builtIn.map((r: { name: string }) => r.name)).toContain('helpdesk');
    const other = await f.app.inject({ url: '/api/roles/globex', headers: auth(globex) });
    expect(other.json().custom).toEqual([]);
  });

  it('an administrator holding a view-only custom role can read users but not change them', async () => {
    const admin = await f.signIn('admin@acme.test');
    const role = (
      await f.app.inject({
        method: 'POST',
        url: '/api/roles/acme',
        headers: auth(admin),
        payload: { name: 'Readers', permissions: ['users:view'] },
      })
    ).json();
    const helpdeskId = await userId('helpdesk@acme.test');
    const assign = await f.app.inject({
      method: 'PUT',
      url: `/api/roles/acme/assignments/${helpdeskId}`,
      headers: auth(admin),
      payload: { role: null, customRoleId: role.id },
    });
    expect(assign.statusCode).toBe(200);
    expect(assign.json()).toMatchObject({ role: 'custom', customRoleName: 'Readers' });

    const token = await f.signIn('helpdesk@acme.test');
    const session = (await f.app.inject({ url: '/api/session', headers: auth(token) })).json();
    expect(session).toMatchObject({ role: 'custom', customRoleName: 'Readers', permissions: ['users:view'] });
    expect((await f.app.inject({ url: '/api/subscriber/user/acme', headers: auth(token) })).statusCode).toBe(
      200,
    );
    const write = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme',
      headers: auth(token),
      payload: { username: 'x@acme.test', firstname: 'X', lastname: 'Y' },
    });
    expect(write.statusCode).toBe(403);
    expect(
      (await f.app.inject({ url: '/api/dashboard/acme/summary', headers: auth(token) })).statusCode,
    ).toBe(403);

    // Widening the role takes effect on the next call, without signing in again.
    await f.app.inject({
      method: 'PUT',
      url: `/api/roles/acme/${role.id}`,
      headers: auth(admin),
      payload: { name: 'Readers', permissions: ['users:view', 'dashboard:view'] },
    });
    expect(
      (await f.app.inject({ url: '/api/dashboard/acme/summary', headers: auth(token) })).statusCode,
    ).toBe(200);

    // A held role cannot be deleted; once nobody holds it, it can.
    const held = await f.app.inject({
      method: 'DELETE',
      url: `/api/roles/acme/${role.id}`,
      headers: auth(admin),
    });
    expect(held.statusCode).toBe(409);
    await f.app.inject({
      method: 'PUT',
      url: `/api/roles/acme/assignments/${helpdeskId}`,
      headers: auth(admin),
      payload: { role: 'helpdesk', customRoleId: null },
    });
    expect(
      (
        await f.app.inject({ method: 'DELETE', url: `/api/roles/acme/${role.id}`, headers: auth(admin) })
      ).json(),
    ).toEqual({ deleted: true });
  });

  it('assignments: lists administrators only, refuses other tenants, bad input and removing the last owner', async () => {
    const admin = await f.signIn('admin@acme.test');
    const list = await f.app.inject({ url: '/api/roles/acme/assignments', headers: auth(admin) });
    expect(list.json().items.map((r: { username: string }) => r.username)).toEqual([
      'admin@acme.test',
      'auditor@acme.test',
      'billing@acme.test',
      'helpdesk@acme.test',
    ]);
    const ownerId = await userId('admin@acme.test');
    const url = `/api/roles/acme/assignments/${ownerId}`;
    expect(
      (await f.app.inject({ method: 'PUT', url, payload: { role: 'admin', customRoleId: null } })).statusCode,
    ).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect(
      (
        await f.app.inject({
          method: 'PUT',
          url,
          headers: auth(auditor),
          payload: { role: 'admin', customRoleId: null },
        })
      ).statusCode,
    ).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    const globexOwner = await userId('admin@globex.test');
    expect(
      (
        await f.app.inject({
          method: 'PUT',
          url: `/api/roles/acme/assignments/${globexOwner}`,
          headers: auth(admin),
          payload: { role: 'admin', customRoleId: null },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await f.app.inject({
          method: 'PUT',
          url,
          headers: auth(globex),
          payload: { role: 'admin', customRoleId: null },
        })
      ).statusCode,
    ).toBe(404);
    const both = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(admin),
      payload: { role: null, customRoleId: null },
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().details).toEqual([{ path: 'body.role', message: 'validation.roleChoice' }]);
    // Nobody changes their own role…
    const self = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(admin),
      payload: { role: 'admin', customRoleId: null },
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().details).toEqual([{ path: 'params.id', message: 'validation.ownAssignment' }]);
    // …and even the managing partner cannot leave the tenant without an owner.
    const last = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(await f.signIn('partner@northwind.test')),
      payload: { role: 'admin', customRoleId: null },
    });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ code: 'last_owner', errcode: 17 });
    const enduser = await userId('enduser@acme.test');
    expect(
      (
        await f.app.inject({
          method: 'PUT',
          url: `/api/roles/acme/assignments/${enduser}`,
          headers: auth(admin),
          payload: { role: 'admin', customRoleId: null },
        })
      ).statusCode,
    ).toBe(404);
  });
});
