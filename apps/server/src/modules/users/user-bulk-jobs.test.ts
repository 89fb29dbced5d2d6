import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

async function makeUsers(token: string, prefix: string, count: number, tenant = 'acme') {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await f.app.inject({
      method: 'POST',
      url: `/api/subscriber/user/${tenant}`,
      headers: auth(token),
      payload: { username: `${prefix}${i}@${tenant}.test`, firstname: prefix, lastname: `N${i}` },
    });
    expect(res.statusCode).toBe(201);
    ids.push(res.json().id);
  }
  return ids;
}

const post = (token: string, path: string, payload: unknown, tenant = 'acme') =>
  f.app.inject({
    method: 'POST',
    url: `/api/subscriber/user/${tenant}/${path}`,
    headers: auth(token),
    payload: payload as object,
  });

/** Polls a bulk job until it is no longer running. */
async function waitForJob(token: string, id: string, tenant = 'acme') {
  for (let i = 0; i < 1200; i++) {
    const res = await f.app.inject({
      url: `/api/subscriber/user/${tenant}/bulk/${id}`,
      headers: auth(token),
    });
    expect(res.statusCode).toBe(200);
    if (res.json().status !== 'running') return res.json();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('bulk job did not finish');
}

/** Starts a bulk operation and answers the finished job. */
async function runBulk(token: string, path: 'bulk' | 'bulk-delete', payload: unknown) {
  const res = await post(token, path, payload);
  expect(res.statusCode).toBe(202);
  return waitForJob(token, res.json().id);
}

/** Flags and groups of end users by username, read by the owner (not through the code under test). */
async function stateOf(usernames: string[]) {
  const rows = await queryRows<{
    username: string;
    isprvaccess: boolean;
    issiauser: boolean;
    groups: string[];
  }>(
    f.database.db,
    sql`select users.username, users.isprvaccess, users.issiauser,
          coalesce(array(select ug.group_id::text from user_groups ug
            where ug.tenant_id = users.tenant_id and ug.user_id = users.id), '{}') as groups
        from users where users.username in (${sql.join(
          usernames.map((u) => sql`${u}`),
          sql`, `,
        )})`,
  );
  return new Map(rows.map((r) => [r.username, r]));
}

/** The bulk events of acme, newest first; `since` drops the ones that were there before. */
async function bulkEvents(token: string, since: unknown[] = []) {
  const list = await f.app.inject({
    url: '/api/events/admin/acme?action=user.bulk.&limit=100',
    headers: auth(token),
  });
  const items = list.json().items as Array<{
    id: string;
    action: string;
    objectId: string;
    objectName: string;
  }>;
  return items.slice(0, items.length - since.length);
}

async function eventAfter(token: string, eventId: string) {
  const res = await f.app.inject({ url: `/api/events/admin/acme/${eventId}`, headers: auth(token) });
  return res.json().after as Record<string, unknown>;
}

describe('POST subscriber/user/{tenant}/bulk with a match', () => {
  it('covers 401, 403, other tenant and 400, and a refused request changes nothing', async () => {
    const admin = await f.signIn('admin@acme.test');
    const before = await bulkEvents(admin);
    const [id] = await makeUsers(admin, 'guard', 1);
    const body = { match: { q: 'guard' }, action: 'enablePrivateAccess' };
    const url = '/api/subscriber/user/acme/bulk';
    expect((await f.app.inject({ method: 'POST', url, payload: body })).statusCode).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect((await post(auditor, 'bulk', body)).statusCode).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect((await post(globex, 'bulk', body)).statusCode).toBe(404);

    const cases: Array<[unknown, Array<{ path: string; message: string }>]> = [
      [{ action: 'enableXdr' }, [{ path: 'body.ids', message: 'validation.idsOrMatch' }]],
      [
        { ids: [id], match: {}, action: 'enableXdr' },
        [{ path: 'body.ids', message: 'validation.idsOrMatch' }],
      ],
      [
        { match: { query: 'guard' }, action: 'enableXdr' },
        [{ path: 'body.match', message: 'validation.unknownField' }],
      ],
      [
        { match: { q: 'guard' }, action: 'addToGroup' },
        [{ path: 'body.groupId', message: 'validation.required' }],
      ],
      [
        { match: { q: 'x'.repeat(201) }, action: 'enableXdr' },
        [{ path: 'body.match.q', message: 'validation.tooLong' }],
      ],
      [
        { match: { q: 'guard' }, action: 'makeAdmin' },
        [{ path: 'body.action', message: 'validation.choice' }],
      ],
      [
        { match: { q: 'guard' }, action: 'addToGroup', groupId: f.globex.groupIds[0] },
        [{ path: 'body.groupId', message: 'validation.unknownGroup' }],
      ],
    ];
    for (const [payload, details] of cases) {
      const res = await post(admin, 'bulk', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details, JSON.stringify(payload)).toEqual(details);
    }
    const state = await stateOf(['guard0@acme.test']);
    expect(state.get('guard0@acme.test')).toMatchObject({ isprvaccess: false, groups: [] });
    expect(await bulkEvents(admin, before)).toEqual([]);
  });

  it('applies to exactly the users matching the search, in this tenant only, and logs one event', async () => {
    const admin = await f.signIn('admin@acme.test');
    const before = await bulkEvents(admin);
    await makeUsers(admin, 'alpha', 4);
    await makeUsers(admin, 'beta', 3);
    const globexAdmin = await f.signIn('admin@globex.test');
    await makeUsers(globexAdmin, 'alpha', 2, 'globex');

    const started = await post(admin, 'bulk', { match: { q: '  ALPHA ' }, action: 'enableInternetAccess' });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({
      action: 'enableInternetAccess',
      match: { q: 'ALPHA' },
      matched: 4,
    });
    const job = await waitForJob(admin, started.json().id);
    expect(job).toMatchObject({ status: 'completed', matched: 4, processed: 4, changed: 4, error: null });
    expect(job.finishedAt).not.toBeNull();

    const state = await stateOf([
      ...[0, 1, 2, 3].map((i) => `alpha${i}@acme.test`),
      ...[0, 1, 2].map((i) => `beta${i}@acme.test`),
      'alpha0@globex.test',
      'alpha1@globex.test',
      'admin@acme.test',
    ]);
    for (const [username, row] of state) {
      expect(row.issiauser, username).toBe(username.startsWith('alpha') && username.endsWith('@acme.test'));
    }

    // Again: the same users match, none changes; `%` is a literal character, not a pattern.
    expect(
      await runBulk(admin, 'bulk', { match: { q: 'alpha' }, action: 'enableInternetAccess' }),
    ).toMatchObject({ matched: 4, changed: 0 });
    expect(await runBulk(admin, 'bulk', { match: { q: '%' }, action: 'disablePrivateAccess' })).toMatchObject(
      {
        matched: 0,
        changed: 0,
        status: 'completed',
      },
    );

    const events = await bulkEvents(admin, before);
    expect(events.map((e) => e.action)).toEqual([
      'user.bulk.disablePrivateAccess',
      'user.bulk.enableInternetAccess',
      'user.bulk.enableInternetAccess',
    ]);
    const first = events[2];
    expect(first.objectId).toBe(job.id);
    expect(await eventAfter(admin, first.id)).toEqual({
      action: 'enableInternetAccess',
      match: { q: 'ALPHA' },
      matched: 4,
      processed: 4,
      changed: 4,
      status: 'completed',
    });
  });

  it('adds every matching user to a group and removes them again; match {} is every end user', async () => {
    const admin = await f.signIn('admin@acme.test');
    await makeUsers(admin, 'grp', 3);
    await makeUsers(admin, 'other', 2);
    const [engineering] = f.acme.groupIds;
    const added = await runBulk(admin, 'bulk', {
      match: { q: 'grp' },
      action: 'addToGroup',
      groupId: engineering,
    });
    expect(added).toMatchObject({ matched: 3, changed: 3, groupId: engineering });
    let state = await stateOf(['grp0@acme.test', 'grp2@acme.test', 'other0@acme.test']);
    expect(state.get('grp0@acme.test')?.groups).toEqual([engineering]);
    expect(state.get('grp2@acme.test')?.groups).toEqual([engineering]);
    expect(state.get('other0@acme.test')?.groups).toEqual([]);

    const endUsers = await f.app.inject({ url: '/api/subscriber/user/acme?limit=1', headers: auth(admin) });
    const all = await runBulk(admin, 'bulk', { match: {}, action: 'removeFromGroup', groupId: engineering });
    expect(all).toMatchObject({ match: {}, matched: endUsers.json().total, changed: 3 });
    state = await stateOf(['grp0@acme.test']);
    expect(state.get('grp0@acme.test')?.groups).toEqual([]);
  });
});

describe('POST subscriber/user/{tenant}/bulk-delete', () => {
  it('covers 401, 403, other tenant and 400', async () => {
    const admin = await f.signIn('admin@acme.test');
    const [id] = await makeUsers(admin, 'keep', 1);
    const url = '/api/subscriber/user/acme/bulk-delete';
    expect((await f.app.inject({ method: 'POST', url, payload: { ids: [id] } })).statusCode).toBe(401);
    // Helpdesk may change users but not delete them.
    const helpdesk = await f.signIn('helpdesk@acme.test');
    expect((await post(helpdesk, 'bulk-delete', { ids: [id] })).statusCode).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect((await post(globex, 'bulk-delete', { match: {} })).statusCode).toBe(404);
    // Another tenant's ids in one's own tenant delete nothing.
    expect(await runBulkAs(globex, 'globex', { ids: [id] })).toMatchObject({ matched: 0, changed: 0 });

    for (const payload of [{}, { ids: [id], match: { q: 'keep' } }, { ids: [] }, { match: { nope: 1 } }]) {
      const res = await post(admin, 'bulk-delete', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details.length).toBe(1);
    }
    expect((await post(admin, 'bulk-delete', {})).json().details).toEqual([
      { path: 'body.ids', message: 'validation.idsOrMatch' },
    ]);
    expect((await stateOf(['keep0@acme.test'])).size).toBe(1);
  });

  it('deletes a list of ids at once, and every user matching a search but no other', async () => {
    const admin = await f.signIn('admin@acme.test');
    const before = await bulkEvents(admin);
    const ids = await makeUsers(admin, 'gone', 2);
    await makeUsers(admin, 'drop', 3);
    await makeUsers(admin, 'stay', 2);
    const globex = await f.signIn('admin@globex.test');
    await makeUsers(globex, 'drop', 1, 'globex');

    const byIds = await post(admin, 'bulk-delete', { ids: [...ids, ids[0]] });
    expect(byIds.statusCode).toBe(202);
    // A list of ids is done within the request.
    expect(byIds.json()).toMatchObject({
      status: 'completed',
      action: 'delete',
      match: null,
      matched: 2,
      changed: 2,
    });

    const byMatch = await runBulk(admin, 'bulk-delete', { match: { q: 'drop' } });
    expect(byMatch).toMatchObject({ status: 'completed', action: 'delete', matched: 3, changed: 3 });

    const left = await stateOf([
      'gone0@acme.test',
      'drop0@acme.test',
      'drop2@acme.test',
      'stay0@acme.test',
      'stay1@acme.test',
      'drop0@globex.test',
      'admin@acme.test',
    ]);
    expect([...left.keys()].sort()).toEqual([
      'admin@acme.test',
      'drop0@globex.test',
      'stay0@acme.test',
      'stay1@acme.test',
    ]);

    const events = await bulkEvents(admin, before);
    expect(events.map((e) => e.action)).toEqual(['user.bulk.delete', 'user.bulk.delete']);
    expect(await eventAfter(admin, events[0].id)).toMatchObject({
      match: { q: 'drop' },
      matched: 3,
      changed: 3,
    });
    // The deleted users are named, in id order: afterwards there is nobody left to look their ids up.
    const usernameOf = new Map(ids.map((id, i) => [id, `gone${i}@acme.test`]));
    expect(await eventAfter(admin, events[1].id)).toMatchObject({
      match: null,
      matched: 2,
      users: [...ids].sort().map((id) => usernameOf.get(id)),
    });
    expect(events[1]).toMatchObject({ objectName: '2 users' });
  });
});

/** A bulk delete in another tenant, finished. */
async function runBulkAs(token: string, tenant: string, payload: unknown) {
  const res = await post(token, 'bulk-delete', payload, tenant);
  expect(res.statusCode).toBe(202);
  return waitForJob(token, res.json().id, tenant);
}

describe('GET subscriber/user/{tenant}/bulk/{id}', () => {
  it('covers 401, other tenant, an import id and a bad id', async () => {
    const admin = await f.signIn('admin@acme.test');
    const job = await runBulk(admin, 'bulk', { match: { q: 'nobody-here' }, action: 'enablePrivateAccess' });
    const url = `/api/subscriber/user/acme/bulk/${job.id}`;
    expect((await f.app.inject({ url })).statusCode).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect((await f.app.inject({ url, headers: auth(auditor) })).json()).toMatchObject({ id: job.id });
    const globex = await f.signIn('admin@globex.test');
    expect((await f.app.inject({ url, headers: auth(globex) })).statusCode).toBe(404);
    expect(
      (await f.app.inject({ url: `/api/subscriber/user/globex/bulk/${job.id}`, headers: auth(globex) }))
        .statusCode,
    ).toBe(404);
    // Bulk jobs and import jobs share a table but not their ids' meaning.
    expect(
      (await f.app.inject({ url: `/api/subscriber/user/acme/import/${job.id}`, headers: auth(admin) }))
        .statusCode,
    ).toBe(404);
    const imported = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme/import?mode=valid',
      headers: { ...auth(admin), 'content-type': 'text/csv' },
      payload: 'username,firstname,lastname\nimp.bulk@acme.test,Imp,Bulk',
    });
    expect(
      (
        await f.app.inject({
          url: `/api/subscriber/user/acme/bulk/${imported.json().id}`,
          headers: auth(admin),
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await f.app.inject({ url: '/api/subscriber/user/acme/bulk/nope', headers: auth(admin) })).statusCode,
    ).toBe(400);
  });
});

describe('bulk changes at scale', () => {
  it('changes 10 001 matching users batch by batch, deletes 5 000 of them, and reports the counts', async () => {
    const admin = await f.signIn('admin@acme.test');
    const before = await bulkEvents(admin);
    // Made directly in the database: creating them through the API is not what this test is about.
    await f.database.db.execute(sql`
      insert into users (tenant_id, username, email, firstname, lastname, usertype, role, is_email_verified)
      select ${f.acme.id}::uuid, p || n || '@scale.test', p || n || '@scale.test', 'Scale', 'N' || n, 0, 'user', true
      from (values ('load', 5000), ('keep', 5001)) as sets (p, size), generate_series(1, size) as n`);
    await makeUsers(admin, 'bystander', 2);

    const started = await post(admin, 'bulk', { match: { q: '@scale.test' }, action: 'enablePrivateAccess' });
    expect(started.json()).toMatchObject({ status: 'running', matched: 10_001, processed: 0 });
    const job = await waitForJob(admin, started.json().id);
    expect(job).toMatchObject({ status: 'completed', matched: 10_001, processed: 10_001, changed: 10_001 });
    const [flags] = await queryRows<{ on: number; off: number }>(
      f.database.db,
      sql`select count(*) filter (where isprvaccess)::int as on, count(*) filter (where not isprvaccess)::int as off
          from users where tenant_id = ${f.acme.id}::uuid and username like '%@scale.test'`,
    );
    expect(flags).toEqual({ on: 10_001, off: 0 });
    expect((await stateOf(['bystander0@acme.test'])).get('bystander0@acme.test')?.isprvaccess).toBe(false);

    const deleted = await runBulk(admin, 'bulk-delete', { match: { q: 'load' } });
    expect(deleted).toMatchObject({ status: 'completed', matched: 5000, processed: 5000, changed: 5000 });
    const left = await f.app.inject({
      url: '/api/subscriber/user/acme?q=@scale.test&limit=1',
      headers: auth(admin),
    });
    expect(left.json().total).toBe(5001);
    const loads = await f.app.inject({
      url: '/api/subscriber/user/acme?q=load&limit=1',
      headers: auth(admin),
    });
    expect(loads.json().total).toBe(0);

    const events = await bulkEvents(admin, before);
    expect(events.map((e) => e.action)).toEqual(['user.bulk.delete', 'user.bulk.enablePrivateAccess']);
  });
});
