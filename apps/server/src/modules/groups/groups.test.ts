import { GROUP_SORTS } from '@palisade/contracts';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { idsByCursor, type KeysetPageBody } from '../../../test/paging';
import { adminEvents, groups, userGroups, users } from '../../db/schema';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

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

async function createGroup(tenant: string, body: Record<string, unknown>, token = owner) {
  return f.app.inject({ method: 'POST', url: `/api/groups/${tenant}`, headers: auth(token), payload: body });
}

async function createUser(tenant: string, name: string, token = owner): Promise<string> {
  const res = await f.app.inject({
    method: 'POST',
    url: `/api/subscriber/user/${tenant}`,
    headers: auth(token),
    payload: { username: `${name}@${tenant}.test`, firstname: name, lastname: 'Member' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

/** The newest events of acme with this action. */
async function eventsOf(action: string) {
  return f.database.db
    .select()
    .from(adminEvents)
    .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, action)));
}

describe('groups API', () => {
  describe('GET groups/{tenant}', () => {
    it('requires a session (401)', async () => {
      const res = await f.app.inject({ url: '/api/groups/acme' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ errcode: 1, code: 'unauthenticated' });
    });

    it('answers 403 to a role without groups:view (billing admin)', async () => {
      const token = await f.signIn('billing@acme.test');
      const res = await f.app.inject({ url: '/api/groups/acme', headers: auth(token) });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden');
    });

    it("answers 404 for another tenant's list", async () => {
      const res = await f.app.inject({ url: '/api/groups/globex', headers: auth(owner) });
      expect(res.statusCode).toBe(404);
    });

    it('rejects bad paging and sort with details', async () => {
      const res = await f.app.inject({ url: '/api/groups/acme?limit=0&sort=secret', headers: auth(owner) });
      expect(res.statusCode).toBe(400);
      const paths = res.json().details.map((d: { path: string }) => d.path);
      expect(paths).toEqual(expect.arrayContaining(['query.limit', 'query.sort']));
    });

    it('pages, sorts by name, member count and creation, searches, and counts members', async () => {
      const members = [await createUser('acme', 'lister1'), await createUser('acme', 'lister2')];
      const big = (await createGroup('acme', { name: 'zz Big list' })).json();
      await f.app.inject({
        method: 'POST',
        url: `/api/groups/acme/${big.id}/members`,
        headers: auth(owner),
        payload: { userIds: members },
      });
      await createGroup('acme', { name: 'aa small list', description: 'Fifty% off' });

      const all = (await f.app.inject({ url: '/api/groups/acme?limit=200', headers: auth(auditor) })).json();
      const names = all.items.map((g: { name: string }) => g.name);
      expect(names).toEqual(
        [...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())),
      );
      expect(all.total).toBe(all.items.length);
      expect(all.items.find((g: { id: string }) => g.id === big.id)).toMatchObject({ memberCount: 2 });

      const page = (
        await f.app.inject({ url: '/api/groups/acme?limit=1&offset=1', headers: auth(owner) })
      ).json();
      expect(page.total).toBe(all.total);
      expect(page.items.map((g: { name: string }) => g.name)).toEqual([names[1]]);

      const byCount = (
        await f.app.inject({ url: '/api/groups/acme?sort=memberCount&order=desc', headers: auth(owner) })
      ).json();
      expect(byCount.items[0]).toMatchObject({ id: big.id, memberCount: 2 });

      const newest = (
        await f.app.inject({
          url: '/api/groups/acme?sort=createdAt&order=desc&limit=1',
          headers: auth(owner),
        })
      ).json();
      expect(newest.items[0].name).toBe('aa small list');

      const search = (await f.app.inject({ url: '/api/groups/acme?q=LIST', headers: auth(owner) })).json();
      expect(search.items.map((g: { name: string }) => g.name)).toEqual(['aa small list', 'zz Big list']);
      expect(search.total).toBe(2);
      const literal = (await f.app.inject({ url: '/api/groups/acme?q=%25', headers: auth(owner) })).json();
      expect(literal.items.map((g: { name: string }) => g.name)).toEqual(['aa small list']);
    });
  });

  describe('GET groups/{tenant}/{id}', () => {
    it('covers 401, 403, 404 (other tenant, unknown), 400 and the happy path', async () => {
      const [engineering] = f.acme.groupIds;
      const url = `/api/groups/acme/${engineering}`;
      expect((await f.app.inject({ url })).statusCode).toBe(401);
      const billing = await f.signIn('billing@acme.test');
      expect((await f.app.inject({ url, headers: auth(billing) })).statusCode).toBe(403);
      expect((await f.app.inject({ url, headers: auth(globexOwner) })).statusCode).toBe(404);
      const cross = await f.app.inject({
        url: `/api/groups/globex/${engineering}`,
        headers: auth(globexOwner),
      });
      expect(cross.statusCode).toBe(404);
      expect(
        (await f.app.inject({ url: `/api/groups/acme/${UNKNOWN_ID}`, headers: auth(owner) })).statusCode,
      ).toBe(404);
      const bad = await f.app.inject({ url: '/api/groups/acme/not-a-uuid', headers: auth(owner) });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].path).toBe('params.id');
      const ok = await f.app.inject({ url, headers: auth(helpdesk) });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ id: engineering, name: 'Engineering', description: '' });
    });
  });

  describe('POST groups/{tenant}', () => {
    it('covers 401, 403, 404 and 400 without writing anything', async () => {
      expect(
        (await f.app.inject({ method: 'POST', url: '/api/groups/acme', payload: { name: 'X' } })).statusCode,
      ).toBe(401);
      expect((await createGroup('acme', { name: 'By auditor' }, auditor)).statusCode).toBe(403);
      expect((await createGroup('acme', { name: 'By helpdesk' }, helpdesk)).statusCode).toBe(403);
      expect((await createGroup('globex', { name: 'Cross tenant' })).statusCode).toBe(404);
      const bad = await createGroup('acme', { name: '   ', description: 'x'.repeat(501) });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual(
        expect.arrayContaining([
          { path: 'body.name', message: 'validation.required' },
          { path: 'body.description', message: 'validation.tooLong' },
        ]),
      );
      const tooLong = await createGroup('acme', { name: 'n'.repeat(101) });
      expect(tooLong.json().details).toEqual([{ path: 'body.name', message: 'validation.tooLong' }]);
      const list = (await f.app.inject({ url: '/api/groups/acme?q=by ', headers: auth(owner) })).json();
      expect(list.total).toBe(0);
    });

    it('refuses a name taken in the tenant, ignoring case (409), but not one of another tenant', async () => {
      const res = await createGroup('acme', { name: ' engineering ' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'conflict',
        errcode: 5,
        details: [{ path: 'body.name', message: 'validation.groupNameTaken' }],
      });
      expect((await createGroup('globex', { name: 'ENGINEERING' }, globexOwner)).statusCode).toBe(409);
      expect((await createGroup('globex', { name: 'Finance' }, globexOwner)).statusCode).toBe(201);
      expect((await createGroup('acme', { name: 'finance' })).statusCode).toBe(201);
    });

    it('creates a trimmed group with no members and logs group.create', async () => {
      const res = await createGroup('acme', { name: '  Support  ', description: ' First line ' });
      expect(res.statusCode).toBe(201);
      const group = res.json();
      expect(group).toMatchObject({ name: 'Support', description: 'First line', memberCount: 0 });
      const fetched = await f.app.inject({ url: `/api/groups/acme/${group.id}`, headers: auth(owner) });
      expect(fetched.json()).toEqual(group);
      const [event] = (await eventsOf('group.create')).filter((e) => e.objectId === group.id);
      expect(event).toMatchObject({
        objectType: 'group',
        objectName: 'Support',
        actorName: 'admin@acme.test',
      });
      expect(event.after).toMatchObject({ name: 'Support', description: 'First line' });
      // The users module's look-up sees the new group too.
      const options = await f.app.inject({ url: '/api/groups/acme/options', headers: auth(owner) });
      expect(options.json().map((g: { name: string }) => g.name)).toContain('Support');
    });
  });

  describe('POST groups/{tenant}/{id}/copy', () => {
    const copy = (
      id: string,
      body: unknown,
      headers: Record<string, string> = auth(owner),
      tenant = 'acme',
    ) =>
      f.app.inject({
        method: 'POST',
        url: `/api/groups/${tenant}/${id}/copy`,
        headers,
        payload: body as object,
      });
    /** Acme's groups named like `name` (ignoring case). */
    const named = async (name: string) =>
      (await f.app.inject({ url: `/api/groups/acme?q=${encodeURIComponent(name)}`, headers: auth(owner) }))
        .json()
        .items.map((g: { name: string }) => g.name);

    it('covers 401, 403, 404 (other tenant, unknown) and 400 with details, creating nothing', async () => {
      const [engineering] = f.acme.groupIds;
      const body = { name: 'Copy check', withMembers: false };
      expect((await copy(engineering, body, {})).statusCode).toBe(401);
      const forbidden = await copy(engineering, body, auth(auditor));
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().code).toBe('forbidden');
      expect((await copy(engineering, body, auth(helpdesk))).statusCode).toBe(403);
      // Another tenant's group: through one's own tenant, through the other's, and an unknown id.
      expect((await copy(f.globex.groupIds[0], body)).statusCode).toBe(404);
      expect((await copy(engineering, body, auth(globexOwner), 'globex')).statusCode).toBe(404);
      expect((await copy(engineering, body, auth(owner), 'globex')).statusCode).toBe(404);
      expect((await copy(UNKNOWN_ID, body)).statusCode).toBe(404);
      const bad = await copy(engineering, { name: ' ', description: 'x'.repeat(501), withMembers: 'yes' });
      expect(bad.statusCode).toBe(400);
      expect(
        bad
          .json()
          .details.map((d: { path: string }) => d.path)
          .sort(),
      ).toEqual(['body.description', 'body.name', 'body.withMembers']);
      const missing = await copy(engineering, { name: 'Copy check' });
      expect(missing.json().details).toEqual([{ path: 'body.withMembers', message: expect.any(String) }]);
      expect((await copy('not-a-uuid', body)).json().details[0].path).toBe('params.id');
      expect(await named('Copy check')).toEqual([]);
    });

    it('copies name and description without the members, and logs group.copy', async () => {
      const source = (await createGroup('acme', { name: 'Copy source', description: 'Kept text' })).json();
      const member = await createUser('acme', 'copy.alone');
      await f.app.inject({
        method: 'POST',
        url: `/api/groups/acme/${source.id}/members`,
        headers: auth(owner),
        payload: { userIds: [member] },
      });
      const res = await copy(source.id, { name: ' Copy bare ', withMembers: false });
      expect(res.statusCode, res.body).toBe(201);
      const group = res.json();
      expect(group).toMatchObject({ name: 'Copy bare', description: 'Kept text', memberCount: 0 });
      expect(group.id).not.toBe(source.id);
      const fetched = await f.app.inject({ url: `/api/groups/acme/${group.id}`, headers: auth(owner) });
      expect(fetched.json()).toEqual(group);
      const [event] = (await eventsOf('group.copy')).filter((e) => e.objectId === group.id);
      expect(event).toMatchObject({
        objectType: 'group',
        objectName: 'Copy bare',
        actorName: 'admin@acme.test',
      });
      expect(event.after).toMatchObject({
        name: 'Copy bare',
        memberCount: 0,
        copiedFrom: { id: source.id, name: 'Copy source' },
        withMembers: false,
      });
    });

    it("copies with the source's members in one go, leaving the source as it was", async () => {
      const source = (await createGroup('acme', { name: 'Copy crowd', description: 'Old' })).json();
      const members = [
        await createUser('acme', 'copy.ann'),
        await createUser('acme', 'copy.ben'),
        await createUser('acme', 'copy.cat'),
      ];
      await f.app.inject({
        method: 'POST',
        url: `/api/groups/acme/${source.id}/members`,
        headers: auth(owner),
        payload: { userIds: members },
      });
      const res = await copy(source.id, { name: 'Copy crowd 2', description: 'New', withMembers: true });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ name: 'Copy crowd 2', description: 'New', memberCount: 3 });
      const listed = await f.app.inject({
        url: `/api/groups/acme/${res.json().id}/members`,
        headers: auth(owner),
      });
      expect(listed.json().items.map((m: { username: string }) => m.username)).toEqual([
        'copy.ann@acme.test',
        'copy.ben@acme.test',
        'copy.cat@acme.test',
      ]);
      const after = await f.app.inject({ url: `/api/groups/acme/${source.id}`, headers: auth(owner) });
      expect(after.json()).toMatchObject({ name: 'Copy crowd', description: 'Old', memberCount: 3 });
      const [event] = (await eventsOf('group.copy')).filter((e) => e.objectId === res.json().id);
      expect(event.after).toMatchObject({ memberCount: 3, withMembers: true });
    });

    it('refuses a taken name (409) like a create, creating nothing', async () => {
      const [engineering] = f.acme.groupIds;
      const before = (await eventsOf('group.copy')).length;
      const res = await copy(engineering, { name: ' SALES ', withMembers: true });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'conflict',
        details: [{ path: 'body.name', message: 'validation.groupNameTaken' }],
      });
      expect(await named('sales')).toEqual(['Sales']);
      expect((await eventsOf('group.copy')).length).toBe(before);
    });

    it('needs groups:update as well to bring the members along', async () => {
      const created = await f.app.inject({
        method: 'POST',
        url: '/api/me/tokens',
        headers: auth(owner),
        payload: { name: 'Creates groups', permissions: ['groups:view', 'groups:create'] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const bearer = { authorization: `Bearer ${created.json().secret}` };
      const [engineering] = f.acme.groupIds;
      const refused = await copy(engineering, { name: 'Copy by token', withMembers: true }, bearer);
      expect(refused.statusCode).toBe(403);
      expect(await named('Copy by token')).toEqual([]);
      const empty = await copy(engineering, { name: 'Copy by token', withMembers: false }, bearer);
      expect(empty.statusCode, empty.body).toBe(201);
    });
  });

  describe('PUT groups/{tenant}/{id}', () => {
    it('covers 401, 403, 404, 400, 409 and updates with before/after in the log', async () => {
      const group = (await createGroup('acme', { name: 'Renamable', description: 'old' })).json();
      const url = `/api/groups/acme/${group.id}`;
      const put = (payload: unknown, token?: string, to = url) =>
        f.app.inject({
          method: 'PUT',
          url: to,
          headers: token ? auth(token) : {},
          payload: payload as object,
        });

      expect((await put({ name: 'X' })).statusCode).toBe(401);
      expect((await put({ name: 'X' }, auditor)).statusCode).toBe(403);
      expect((await put({ name: 'X' }, globexOwner)).statusCode).toBe(404);
      expect((await put({ name: 'X' }, globexOwner, `/api/groups/globex/${group.id}`)).statusCode).toBe(404);
      expect((await put({ name: 'X' }, owner, `/api/groups/acme/${UNKNOWN_ID}`)).statusCode).toBe(404);
      const bad = await put({ name: '', description: 42 }, owner);
      expect(bad.statusCode).toBe(400);
      expect(
        bad
          .json()
          .details.map((d: { path: string }) => d.path)
          .sort(),
      ).toEqual(['body.description', 'body.name']);
      const taken = await put({ name: 'SALES' }, owner);
      expect(taken.statusCode).toBe(409);
      expect(taken.json().details).toEqual([{ path: 'body.name', message: 'validation.groupNameTaken' }]);

      // Changing only the case of its own name is allowed.
      expect((await put({ name: 'RENAMABLE' }, owner)).json().name).toBe('RENAMABLE');
      const ok = await put({ description: 'new' }, owner);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ name: 'RENAMABLE', description: 'new' });
      const events = (await eventsOf('group.update')).filter((e) => e.objectId === group.id);
      expect(events).toHaveLength(2);
      expect(events.map((e) => [e.before, e.after])).toContainEqual([
        expect.objectContaining({ description: 'old' }),
        expect.objectContaining({ description: 'new' }),
      ]);
    });
  });

  describe('members', () => {
    it('covers 401, 403, 404 and 400 on the member routes', async () => {
      const [engineering] = f.acme.groupIds;
      const user = await createUser('acme', 'guard');
      const url = `/api/groups/acme/${engineering}/members`;
      const call = (method: 'GET' | 'POST' | 'DELETE', token?: string, to = url, payload?: object) =>
        f.app.inject({ method, url: to, headers: token ? auth(token) : {}, payload });
      const body = { userIds: [user] };

      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        expect((await call(method, undefined, url, method === 'GET' ? undefined : body)).statusCode).toBe(
          401,
        );
        expect((await call(method, globexOwner, url, method === 'GET' ? undefined : body)).statusCode).toBe(
          404,
        );
        expect(
          (
            await call(
              method,
              owner,
              `/api/groups/acme/${UNKNOWN_ID}/members`,
              method === 'GET' ? undefined : body,
            )
          ).statusCode,
        ).toBe(404);
        // Another tenant's group through one's own tenant path is not found either.
        expect(
          (
            await call(
              method,
              globexOwner,
              `/api/groups/globex/${engineering}/members`,
              method === 'GET' ? undefined : body,
            )
          ).statusCode,
        ).toBe(404);
      }
      const billing = await f.signIn('billing@acme.test');
      expect((await call('GET', billing)).statusCode).toBe(403);
      expect((await call('POST', auditor, url, body)).statusCode).toBe(403);
      expect((await call('DELETE', helpdesk, url, body)).statusCode).toBe(403);

      const badQuery = await call('GET', owner, `${url}?offset=-1`);
      expect(badQuery.statusCode).toBe(400);
      expect(badQuery.json().details[0].path).toBe('query.offset');
      for (const method of ['POST', 'DELETE'] as const) {
        const empty = await call(method, owner, url, { userIds: [] });
        expect(empty.statusCode).toBe(400);
        expect(empty.json().details).toEqual([{ path: 'body.userIds', message: 'validation.required' }]);
        const notIds = await call(method, owner, url, { userIds: ['x'] });
        expect(notIds.statusCode).toBe(400);
        expect(notIds.json().details[0].path).toBe('body.userIds.0');
      }
    });

    it("refuses another tenant's users and administrators, adding nobody", async () => {
      const [engineering] = f.acme.groupIds;
      const own = await createUser('acme', 'mixed');
      const foreign = await createUser('globex', 'foreign', globexOwner);
      const [admin] = await f.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.username, 'auditor@acme.test'));
      for (const other of [foreign, admin.id, UNKNOWN_ID]) {
        const res = await f.app.inject({
          method: 'POST',
          url: `/api/groups/acme/${engineering}/members`,
          headers: auth(owner),
          payload: { userIds: [own, other] },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().details).toEqual([{ path: 'body.userIds', message: 'validation.unknownUser' }]);
      }
      const user = await f.app.inject({ url: `/api/subscriber/user/acme/${own}`, headers: auth(owner) });
      expect(user.json().groups).toEqual([]);
    });

    it('adds, lists (paged, searched), and removes members, logging each change', async () => {
      const group = (await createGroup('acme', { name: 'Members' })).json();
      const url = `/api/groups/acme/${group.id}/members`;
      const [anna, bert, cleo] = [
        await createUser('acme', 'anna'),
        await createUser('acme', 'bert'),
        await createUser('acme', 'cleo'),
      ];

      const add = await f.app.inject({
        method: 'POST',
        url,
        headers: auth(owner),
        payload: { userIds: [anna, bert, anna] },
      });
      expect(add.statusCode).toBe(200);
      expect(add.json()).toEqual({ added: 2 });
      const again = await f.app.inject({
        method: 'POST',
        url,
        headers: auth(owner),
        payload: { userIds: [bert, cleo] },
      });
      expect(again.json()).toEqual({ added: 1 });

      const page = (await f.app.inject({ url: `${url}?limit=2`, headers: auth(auditor) })).json();
      expect(page.total).toBe(3);
      expect(page.items).toEqual([
        { id: anna, username: 'anna@acme.test', fullname: 'anna Member', connstatus: 'never' },
        { id: bert, username: 'bert@acme.test', fullname: 'bert Member', connstatus: 'never' },
      ]);
      const last = (await f.app.inject({ url: `${url}?limit=2&offset=2`, headers: auth(owner) })).json();
      expect(last.items.map((m: { id: string }) => m.id)).toEqual([cleo]);
      const desc = (await f.app.inject({ url: `${url}?order=desc&limit=1`, headers: auth(owner) })).json();
      expect(desc.items[0].id).toBe(cleo);
      const search = (await f.app.inject({ url: `${url}?q=BERT@`, headers: auth(owner) })).json();
      expect(search).toMatchObject({ total: 1, items: [{ id: bert }] });

      // Membership is visible from the user's side, and the count from the group's.
      const user = await f.app.inject({ url: `/api/subscriber/user/acme/${anna}`, headers: auth(owner) });
      expect(user.json().groups).toContain(group.id);
      const fetched = await f.app.inject({ url: `/api/groups/acme/${group.id}`, headers: auth(owner) });
      expect(fetched.json().memberCount).toBe(3);

      const remove = await f.app.inject({
        method: 'DELETE',
        url,
        headers: auth(owner),
        payload: { userIds: [anna, UNKNOWN_ID] },
      });
      expect(remove.json()).toEqual({ removed: 1 });
      const after = (await f.app.inject({ url, headers: auth(owner) })).json();
      expect(after.items.map((m: { id: string }) => m.id)).toEqual([bert, cleo]);

      const adds = (await eventsOf('group.members.add')).filter((e) => e.objectId === group.id);
      expect(adds.map((e) => (e.after as { added: string[] }).added.sort())).toEqual(
        expect.arrayContaining([['anna@acme.test', 'bert@acme.test'], ['cleo@acme.test']]),
      );
      const removes = (await eventsOf('group.members.remove')).filter((e) => e.objectId === group.id);
      expect(removes).toHaveLength(1);
      expect(removes[0]).toMatchObject({
        objectName: 'Members',
        before: { memberCount: 3 },
        after: { memberCount: 2, removed: ['anna@acme.test'] },
      });
    });
  });

  describe('GET groups/{tenant}/{id}/usage', () => {
    it('covers 401, 403, 404, 400 and counts the members that would lose the group', async () => {
      const group = (await createGroup('acme', { name: 'Used' })).json();
      const url = `/api/groups/acme/${group.id}/usage`;
      expect((await f.app.inject({ url })).statusCode).toBe(401);
      const billing = await f.signIn('billing@acme.test');
      expect((await f.app.inject({ url, headers: auth(billing) })).statusCode).toBe(403);
      expect((await f.app.inject({ url, headers: auth(globexOwner) })).statusCode).toBe(404);
      expect(
        (await f.app.inject({ url: `/api/groups/globex/${group.id}/usage`, headers: auth(globexOwner) }))
          .statusCode,
      ).toBe(404);
      expect(
        (await f.app.inject({ url: '/api/groups/acme/nope/usage', headers: auth(owner) })).json().details[0],
      ).toMatchObject({ path: 'params.id' });

      expect((await f.app.inject({ url, headers: auth(auditor) })).json()).toEqual({
        members: 0,
        references: [],
      });
      await f.app.inject({
        method: 'POST',
        url: `/api/groups/acme/${group.id}/members`,
        headers: auth(owner),
        payload: { userIds: [await createUser('acme', 'usage')] },
      });
      expect((await f.app.inject({ url, headers: auth(owner) })).json()).toEqual({
        members: 1,
        references: [],
      });
      // A policy group assigned to the group is named, so the delete confirmation can say what goes.
      const policyGroup = await f.app.inject({
        method: 'POST',
        url: '/api/policy/group/acme',
        headers: auth(owner),
        payload: { name: 'Used bundle', groupIds: [group.id] },
      });
      expect(policyGroup.statusCode).toBe(201);
      expect((await f.app.inject({ url, headers: auth(auditor) })).json()).toEqual({
        members: 1,
        references: [{ type: 'policyGroup', id: policyGroup.json().id, name: 'Used bundle' }],
      });
    });
  });

  describe('DELETE groups/{tenant}', () => {
    it('covers 401, 403, other tenant and 400, and deletes only own groups with their memberships', async () => {
      const a = (await createGroup('acme', { name: 'Doomed A' })).json();
      const b = (await createGroup('acme', { name: 'Doomed B' })).json();
      const member = await createUser('acme', 'doomed');
      await f.app.inject({
        method: 'POST',
        url: `/api/groups/acme/${a.id}/members`,
        headers: auth(owner),
        payload: { userIds: [member] },
      });
      const url = '/api/groups/acme';
      const del = (payload: object, token?: string, to = url) =>
        f.app.inject({ method: 'DELETE', url: to, headers: token ? auth(token) : {}, payload });

      expect((await del({ ids: [a.id] })).statusCode).toBe(401);
      expect((await del({ ids: [a.id] }, helpdesk)).statusCode).toBe(403);
      expect((await del({ ids: [a.id] }, auditor)).statusCode).toBe(403);
      expect((await del({ ids: [a.id] }, globexOwner)).statusCode).toBe(404);
      expect((await del({ ids: [a.id] }, globexOwner, '/api/groups/globex')).json()).toEqual({ deleted: 0 });
      const bad = await del({ ids: [] }, owner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0]).toEqual({ path: 'body.ids', message: 'validation.required' });

      const ok = await del({ ids: [a.id, b.id, a.id, f.globex.groupIds[0]] }, owner);
      expect(ok.json()).toEqual({ deleted: 2 });
      expect((await f.app.inject({ url: `${url}/${a.id}`, headers: auth(owner) })).statusCode).toBe(404);
      const user = await f.app.inject({ url: `/api/subscriber/user/acme/${member}`, headers: auth(owner) });
      expect(user.json().groups).toEqual([]);
      // The other tenant's group is untouched.
      expect(
        (
          await f.app.inject({
            url: `/api/groups/globex/${f.globex.groupIds[0]}`,
            headers: auth(globexOwner),
          })
        ).statusCode,
      ).toBe(200);
      const deletes = (await eventsOf('group.delete')).filter((e) => [a.id, b.id].includes(e.objectId ?? ''));
      expect(deletes.map((e) => e.objectName).sort()).toEqual(['Doomed A', 'Doomed B']);
      expect(deletes.find((e) => e.objectId === a.id)?.before).toMatchObject({ memberCount: 1 });
    });
  });

  it('lets the partner administrator manage its customer, not others', async () => {
    const partner = await f.signIn('partner@northwind.test');
    expect((await createGroup('acme', { name: 'From partner' }, partner)).statusCode).toBe(201);
    expect((await f.app.inject({ url: '/api/groups/globex', headers: auth(partner) })).statusCode).toBe(404);
  });
});

describe('groups and members list paging: keyset cursor and the count', () => {
  let pagedGroup: string;

  beforeAll(async () => {
    // Four groups made at the same instant (the creation sort falls back to the id) and with equal member
    // counts (the member-count sort falls back to the name).
    const made = await f.database.db
      .insert(groups)
      .values(
        ['Pg one', 'pg Two', 'Pg three', 'PG four'].map((name) => ({
          tenantId: f.acme.id,
          name,
          createdAt: new Date('2026-01-01T00:00:00Z'),
        })),
      )
      .returning({ id: groups.id });
    pagedGroup = made[0].id;
    const members = [];
    for (const n of [1, 2, 3, 4, 5]) members.push(await createUser('acme', `paged${n}`));
    await f.database.db
      .insert(userGroups)
      .values(members.map((userId) => ({ tenantId: f.acme.id, groupId: pagedGroup, userId })));
  });

  const list = async (url: string) => {
    const res = await f.app.inject({ url, headers: auth(owner) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as KeysetPageBody;
  };

  it.each(GROUP_SORTS.flatMap((sort) => (['asc', 'desc'] as const).map((order) => [sort, order] as const)))(
    'walks the groups by %s (%s) by cursor: each once, in the order offset paging shows',
    async (sort, order) => {
      const all = await list(`/api/groups/acme?limit=100&sort=${sort}&order=${order}`);
      expect(all.items.length).toBeGreaterThanOrEqual(6);
      expect(
        await idsByCursor(f, `/api/groups/acme?limit=2&sort=${sort}&order=${order}`, auth(owner)),
      ).toEqual(all.items.map((g) => g.id));
    },
  );

  it.each(['asc', 'desc'])(
    'walks a group’s members (%s) by cursor, with and without a search',
    async (order) => {
      const base = `/api/groups/acme/${pagedGroup}/members?order=${order}`;
      const all = await list(`${base}&limit=100`);
      expect(all).toMatchObject({ total: 5, totalIsEstimate: false, nextCursor: null });
      expect(await idsByCursor(f, `${base}&limit=2`, auth(owner))).toEqual(all.items.map((m) => m.id));
      const searched = await list(`${base}&limit=100&q=paged4`);
      expect(await idsByCursor(f, `${base}&limit=1&q=paged4`, auth(owner))).toEqual(
        searched.items.map((m) => m.id),
      );
    },
  );

  it('skips the count on request and refuses a cursor of another list or sort', async () => {
    const first = await list(`/api/groups/acme/${pagedGroup}/members?limit=2`);
    expect(first.total).toBe(5);
    const next = await list(
      `/api/groups/acme/${pagedGroup}/members?limit=2&withTotal=false&cursor=${first.nextCursor}`,
    );
    expect(next.total).toBeNull();
    expect(next.items).toHaveLength(2);
    // A members cursor continues a username order, not a group name order.
    const res = await f.app.inject({
      url: `/api/groups/acme?cursor=${first.nextCursor}`,
      headers: auth(owner),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'query.cursor', message: 'validation.invalid' }]);
  });
});
