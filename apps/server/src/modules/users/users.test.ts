import { USER_SORTS } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { idsByCursor, type KeysetPageBody } from '../../../test/paging';
import { users } from '../../db/schema';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

async function createUser(token: string, tenant: string, body: Record<string, unknown>) {
  return f.app.inject({
    method: 'POST',
    url: `/api/subscriber/user/${tenant}`,
    headers: auth(token),
    payload: body,
  });
}

describe('users API', () => {
  describe('GET subscriber/user/{tenant}', () => {
    it('requires a session (401, errcode 1)', async () => {
      const res = await f.app.inject({ url: '/api/subscriber/user/acme' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ errcode: 1, code: 'unauthenticated' });
    });

    it('rejects an unknown or made-up token', async () => {
      const res = await f.app.inject({ url: '/api/subscriber/user/acme', headers: auth('x'.repeat(43)) });
      expect(res.statusCode).toBe(401);
    });

    it('answers 403 to a role without users:view (billing admin)', async () => {
      const token = await f.signIn('billing@acme.test');
      const res = await f.app.inject({ url: '/api/subscriber/user/acme', headers: auth(token) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ errcode: 3, code: 'forbidden' });
    });

    it("answers 404 for another tenant's list", async () => {
      const token = await f.signIn('admin@acme.test');
      const res = await f.app.inject({ url: '/api/subscriber/user/globex', headers: auth(token) });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    });

    it('lets the partner administrator list its customer, not others', async () => {
      const token = await f.signIn('partner@northwind.test');
      expect(
        (await f.app.inject({ url: '/api/subscriber/user/acme', headers: auth(token) })).statusCode,
      ).toBe(200);
      expect(
        (await f.app.inject({ url: '/api/subscriber/user/globex', headers: auth(token) })).statusCode,
      ).toBe(404);
    });

    it('rejects bad paging input with field details', async () => {
      const token = await f.signIn('admin@acme.test');
      const res = await f.app.inject({
        url: '/api/subscriber/user/acme?limit=0&sort=password',
        headers: auth(token),
      });
      expect(res.statusCode).toBe(400);
      const paths = res.json().details.map((d: { path: string }) => d.path);
      expect(paths).toEqual(expect.arrayContaining(['query.limit', 'query.sort']));
    });

    it('lists only end users (usertype 0), paged, searched and sorted, with the total', async () => {
      const token = await f.signIn('admin@acme.test');
      for (const name of ['zed', 'yara', 'xavier']) {
        const r = await createUser(token, 'acme', {
          username: `${name}@acme.test`,
          firstname: name,
          lastname: 'Listed',
        });
        expect(r.statusCode).toBe(201);
      }
      const page = await f.app.inject({
        url: '/api/subscriber/user/acme?limit=2&sort=username&order=desc',
        headers: auth(token),
      });
      expect(page.statusCode).toBe(200);
      const body = page.json();
      expect(body.total).toBe(4); // three created + the fixture's end user; administrators are not listed
      expect(body.items.map((u: { username: string }) => u.username)).toEqual([
        'zed@acme.test',
        'yara@acme.test',
      ]);
      expect(body.items.every((u: { usertype: number }) => u.usertype === 0)).toBe(true);
      const second = await f.app.inject({
        url: '/api/subscriber/user/acme?limit=2&offset=2&sort=username&order=desc',
        headers: auth(token),
      });
      expect(second.json().items.map((u: { username: string }) => u.username)).toEqual([
        'xavier@acme.test',
        'enduser@acme.test',
      ]);
      const search = await f.app.inject({ url: '/api/subscriber/user/acme?q=YAR', headers: auth(token) });
      expect(search.json()).toMatchObject({
        total: 1,
        items: [{ username: 'yara@acme.test', shortname: 'yara' }],
      });
      const literal = await f.app.inject({ url: '/api/subscriber/user/acme?q=%25', headers: auth(token) });
      expect(literal.json().total).toBe(0);
    });
  });

  describe('POST subscriber/user/{tenant}', () => {
    it('requires a session', async () => {
      const res = await f.app.inject({ method: 'POST', url: '/api/subscriber/user/acme', payload: {} });
      expect(res.statusCode).toBe(401);
    });

    it('answers 403 to a read-only auditor and writes nothing', async () => {
      const token = await f.signIn('auditor@acme.test');
      const res = await createUser(token, 'acme', {
        username: 'nope@acme.test',
        firstname: 'No',
        lastname: 'Pe',
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', errcode: 3 });
      const admin = await f.signIn('admin@acme.test');
      const list = await f.app.inject({ url: '/api/subscriber/user/acme?q=nope', headers: auth(admin) });
      expect(list.json().total).toBe(0);
    });

    it('answers 404 for another tenant, even with a valid body', async () => {
      const token = await f.signIn('admin@acme.test');
      const res = await createUser(token, 'globex', {
        username: 'x@globex.test',
        firstname: 'X',
        lastname: 'Y',
      });
      expect(res.statusCode).toBe(404);
    });

    it('rejects bad input with translated field details', async () => {
      const token = await f.signIn('admin@acme.test');
      const res = await createUser(token, 'acme', {
        username: 'not-an-email',
        firstname: '   ',
        lastname: 'ok',
        suci: 'suci-9',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual(
        expect.arrayContaining([
          { path: 'body.username', message: 'validation.email' },
          { path: 'body.firstname', message: 'validation.required' },
          { path: 'body.suci', message: 'validation.suci' },
        ]),
      );
    });

    it("rejects another tenant's group id and creates nothing", async () => {
      const token = await f.signIn('admin@acme.test');
      const res = await createUser(token, 'acme', {
        username: 'grp@acme.test',
        firstname: 'G',
        lastname: 'R',
        groups: [f.globex.groupIds[0]],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ path: 'body.groups', message: 'validation.unknownGroup' }]);
      const list = await f.app.inject({ url: '/api/subscriber/user/acme?q=grp@', headers: auth(token) });
      expect(list.json().total).toBe(0);
    });

    it('refuses a username that exists in any tenant (409)', async () => {
      const token = await f.signIn('admin@acme.test');
      const res = await createUser(token, 'acme', {
        username: 'ADMIN@globex.test',
        firstname: 'A',
        lastname: 'B',
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'user_exists', details: [{ path: 'body.username' }] });
    });

    it('creates a user with groups, flags and SUCI shown as IMSI, and logs the event', async () => {
      const token = await f.signIn('admin@acme.test');
      const res = await createUser(token, 'acme', {
        username: 'New.Person@Acme.test',
        firstname: ' New ',
        lastname: 'Person',
        groups: f.acme.groupIds,
        isprvaccess: true,
        suci: 'suci-0-001-01-0000-0-0-0123456789',
      });
      expect(res.statusCode).toBe(201);
      const user = res.json();
      expect(user).toMatchObject({
        username: 'new.person@acme.test',
        shortname: 'new.person',
        firstname: 'New',
        fullname: 'New Person',
        email: 'new.person@acme.test',
        isprvaccess: true,
        issiauser: false,
        connstatus: 'never',
        imsi: '001010123456789',
        usertype: 0,
        tenant: 'acme',
      });
      expect([...user.groups].sort()).toEqual([...f.acme.groupIds].sort());
      expect(user).not.toHaveProperty('passwordHash');
      const fetched = await f.app.inject({
        url: `/api/subscriber/user/acme/${user.id}`,
        headers: auth(token),
      });
      expect(fetched.json().username).toBe('new.person@acme.test');
      const dash = await f.app.inject({ url: '/api/dashboard/acme/summary', headers: auth(token) });
      expect(dash.json().recentEvents[0]).toMatchObject({
        action: 'user.create',
        objectName: 'new.person@acme.test',
        actor: 'admin@acme.test',
      });
    });
  });

  describe('GET/PUT subscriber/user/{tenant}/{id}', () => {
    it('covers 401, 403, 404 (other tenant), 400 and the happy path', async () => {
      const admin = await f.signIn('admin@acme.test');
      const created = (
        await createUser(admin, 'acme', { username: 'edit.me@acme.test', firstname: 'Edit', lastname: 'Me' })
      ).json();
      const url = `/api/subscriber/user/acme/${created.id}`;

      expect((await f.app.inject({ method: 'PUT', url, payload: { firstname: 'X' } })).statusCode).toBe(401);

      const auditor = await f.signIn('auditor@acme.test');
      expect(
        (await f.app.inject({ method: 'PUT', url, headers: auth(auditor), payload: { firstname: 'X' } }))
          .statusCode,
      ).toBe(403);

      const globex = await f.signIn('admin@globex.test');
      expect((await f.app.inject({ url, headers: auth(globex) })).statusCode).toBe(404);
      const crossPath = `/api/subscriber/user/globex/${created.id}`;
      expect((await f.app.inject({ url: crossPath, headers: auth(globex) })).statusCode).toBe(404);
      expect(
        (
          await f.app.inject({
            method: 'PUT',
            url: crossPath,
            headers: auth(globex),
            payload: { firstname: 'Hacked' },
          })
        ).statusCode,
      ).toBe(404);

      const bad = await f.app.inject({
        method: 'PUT',
        url,
        headers: auth(admin),
        payload: { firstname: '', isprvaccess: 'yes' },
      });
      expect(bad.statusCode).toBe(400);
      expect(
        bad
          .json()
          .details.map((d: { path: string }) => d.path)
          .sort(),
      ).toEqual(['body.firstname', 'body.isprvaccess']);
      expect(
        (await f.app.inject({ url: '/api/subscriber/user/acme/not-a-uuid', headers: auth(admin) }))
          .statusCode,
      ).toBe(400);

      const ok = await f.app.inject({
        method: 'PUT',
        url,
        headers: auth(admin),
        payload: { firstname: 'Edited', issiauser: true, groups: [f.acme.groupIds[1]] },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({
        firstname: 'Edited',
        fullname: 'Edited Me',
        issiauser: true,
        groups: [f.acme.groupIds[1]],
      });
      const after = await f.app.inject({ url, headers: auth(admin) });
      expect(after.json().firstname).toBe('Edited');
    });

    it('returns 404 for an unknown id and for administrators (not end users)', async () => {
      const admin = await f.signIn('admin@acme.test');
      const res = await f.app.inject({
        url: '/api/subscriber/user/acme/00000000-0000-4000-8000-000000000000',
        headers: auth(admin),
      });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('DELETE subscriber/user/{tenant}', () => {
    it('covers 401, 403, other tenant, 400 and deletes only the own tenant ids', async () => {
      const admin = await f.signIn('admin@acme.test');
      const a = (
        await createUser(admin, 'acme', { username: 'del.a@acme.test', firstname: 'Del', lastname: 'A' })
      ).json();
      const b = (
        await createUser(admin, 'acme', { username: 'del.b@acme.test', firstname: 'Del', lastname: 'B' })
      ).json();
      const url = '/api/subscriber/user/acme';

      expect((await f.app.inject({ method: 'DELETE', url, payload: { ids: [a.id] } })).statusCode).toBe(401);
      const helpdesk = await f.signIn('helpdesk@acme.test');
      expect(
        (await f.app.inject({ method: 'DELETE', url, headers: auth(helpdesk), payload: { ids: [a.id] } }))
          .statusCode,
      ).toBe(403);

      const globex = await f.signIn('admin@globex.test');
      expect(
        (await f.app.inject({ method: 'DELETE', url, headers: auth(globex), payload: { ids: [a.id] } }))
          .statusCode,
      ).toBe(404);
      const cross = await f.app.inject({
        method: 'DELETE',
        url: '/api/subscriber/user/globex',
        headers: auth(globex),
        payload: { ids: [a.id] },
      });
      expect(cross.json()).toEqual({ deleted: 0 });

      const bad = await f.app.inject({ method: 'DELETE', url, headers: auth(admin), payload: { ids: [] } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0]).toEqual({ path: 'body.ids', message: 'validation.required' });

      const ok = await f.app.inject({
        method: 'DELETE',
        url,
        headers: auth(admin),
        payload: { ids: [a.id, b.id, a.id] },
      });
      expect(ok.json()).toEqual({ deleted: 2 });
      expect((await f.app.inject({ url: `${url}/${a.id}`, headers: auth(admin) })).statusCode).toBe(404);
    });
  });

  describe('GET groups/{tenant}/options', () => {
    it('lists the tenant groups and hides other tenants', async () => {
      expect((await f.app.inject({ url: '/api/groups/acme/options' })).statusCode).toBe(401);
      const admin = await f.signIn('admin@acme.test');
      const res = await f.app.inject({ url: '/api/groups/acme/options', headers: auth(admin) });
      expect(res.json().map((g: { name: string }) => g.name)).toEqual(['Engineering', 'Sales']);
      expect(
        (await f.app.inject({ url: '/api/groups/globex/options', headers: auth(admin) })).statusCode,
      ).toBe(404);
    });
  });
});

describe('users list paging: keyset cursor and the count', () => {
  let token: string;

  beforeAll(async () => {
    token = await f.signIn('admin@acme.test');
    // Same names (the full-name sort falls back to the id) and creation times a microsecond apart (a cursor
    // that kept milliseconds only would skip or repeat them).
    await f.database.db.insert(users).values(
      [1, 2, 3, 4, 5].map((n) => ({
        tenantId: f.acme.id,
        username: `pager${n}@acme.test`,
        email: `pager${n}@acme.test`,
        firstname: 'Page',
        lastname: n < 4 ? 'Twin' : `Turner${n}`,
        connstatus: n % 2 ? 'connected' : 'never',
        createdAt:
          sql`'2026-01-01T00:00:00Z'::timestamptz + make_interval(secs => ${n} / 1000000.0)` as unknown as Date,
      })),
    );
  });

  const list = async (query: string) => {
    const res = await f.app.inject({ url: `/api/subscriber/user/acme?${query}`, headers: auth(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as KeysetPageBody;
  };

  it.each(USER_SORTS.flatMap((sort) => (['asc', 'desc'] as const).map((order) => [sort, order] as const)))(
    'walks the %s sort (%s) by cursor: every user once, in the order offset paging shows',
    async (sort, order) => {
      const all = await list(`limit=100&sort=${sort}&order=${order}`);
      expect(all.items.length).toBeGreaterThanOrEqual(6);
      const walked = await idsByCursor(
        f,
        `/api/subscriber/user/acme?limit=2&sort=${sort}&order=${order}`,
        auth(token),
      );
      expect(walked).toEqual(all.items.map((u) => u.id));
    },
  );

  it('keeps the search while walking, and has no next page after the last row', async () => {
    const walked = await idsByCursor(f, '/api/subscriber/user/acme?limit=2&q=pager', auth(token));
    expect(walked).toHaveLength(5);
    const last = await list('limit=5&q=pager');
    expect(last).toMatchObject({ total: 5, totalIsEstimate: false, nextCursor: null });
  });

  it('counts the matches exactly below the limit, and not at all when asked not to', async () => {
    const counted = await list('limit=2&q=pager');
    expect(counted).toMatchObject({ total: 5, totalIsEstimate: false });
    expect(counted.nextCursor).toEqual(expect.any(String));
    const uncounted = await list(`limit=2&q=pager&withTotal=false&cursor=${counted.nextCursor}`);
    expect(uncounted.total).toBeNull();
    expect(uncounted.items).toHaveLength(2);
  });

  it('refuses a cursor of another sort or order, or one not made here, with details on query.cursor', async () => {
    const { nextCursor } = await list('limit=1&sort=email');
    for (const query of [
      `sort=username&cursor=${nextCursor}`,
      `sort=email&order=desc&cursor=${nextCursor}`,
      'cursor=bm90LWEtY3Vyc29y',
      'cursor=not*base64',
      'withTotal=maybe',
    ]) {
      const res = await f.app.inject({ url: `/api/subscriber/user/acme?${query}`, headers: auth(token) });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toEqual([
        query.startsWith('withTotal') ? 'query.withTotal' : 'query.cursor',
      ]);
    }
  });
});
