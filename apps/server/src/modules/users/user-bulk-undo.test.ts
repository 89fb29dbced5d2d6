import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PASSWORD, useFixture } from '../../../test/helper';
import { adminEvents, userGroups, users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

async function makeUsers(token: string, prefix: string, count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme',
      headers: auth(token),
      payload: { username: `${prefix}${i}@acme.test`, firstname: prefix, lastname: `N${i}` },
    });
    expect(res.statusCode).toBe(201);
    ids.push(res.json().id);
  }
  return ids;
}

const bulk = (token: string, payload: unknown, tenant = 'acme') =>
  f.app.inject({
    method: 'POST',
    url: `/api/subscriber/user/${tenant}/bulk`,
    headers: auth(token),
    payload: payload as object,
  });

const undo = (token: string | undefined, id: string, tenant = 'acme') =>
  f.app.inject({
    method: 'POST',
    url: `/api/subscriber/user/${tenant}/bulk/${id}/undo`,
    headers: token ? auth(token) : {},
  });

/** Status, reason and internet access of users, read by the owner (not through the code under test). */
async function stateOf(ids: string[]) {
  const rows = await f.database.db
    .select({
      id: users.id,
      isSuspended: users.isSuspended,
      reason: users.statusReason,
      sia: users.issiauser,
    })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

async function waitForJob(token: string, id: string) {
  for (let i = 0; i < 400; i++) {
    const res = await f.app.inject({ url: `/api/subscriber/user/acme/bulk/${id}`, headers: auth(token) });
    if (res.json().status !== 'running') return res.json();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('bulk job did not finish');
}

describe('bulk disable and enable of accounts', () => {
  it('needs a reason to disable; disables only those not disabled, signs them out and revokes their links', async () => {
    const owner = await f.signIn('admin@acme.test');
    const [a, b, c] = await makeUsers(owner, 'bulkoff', 3);
    const noReason = await bulk(owner, { ids: [a], action: 'disable' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details).toEqual([{ path: 'body.reason', message: 'validation.required' }]);
    const tooLong = await bulk(owner, { ids: [a], action: 'disable', reason: 'x'.repeat(301) });
    expect(tooLong.json().details).toEqual([{ path: 'body.reason', message: 'validation.tooLong' }]);
    expect((await stateOf([a])).get(a)?.isSuspended).toBe(false);

    // b is disabled already (with its own reason); a can sign in and has a link waiting.
    expect(
      (
        await f.app.inject({
          method: 'PUT',
          url: `/api/subscriber/user/acme/${b}/status`,
          headers: auth(owner),
          payload: { status: 'disabled', reason: 'On leave' },
        })
      ).statusCode,
    ).toBe(200);
    await f.database.db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, a));
    const session = await f.signIn('bulkoff0@acme.test');
    const link = await f.app.inject({
      method: 'POST',
      url: `/api/enrolment/acme/users/${a}/link`,
      headers: auth(owner),
      payload: {},
    });
    expect(link.statusCode).toBe(201);

    const res = await bulk(owner, { ids: [a, b, c], action: 'disable', reason: ' Contract ended ' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'completed', matched: 3, changed: 2, undoable: true });
    const state = await stateOf([a, b, c]);
    expect(state.get(a)).toMatchObject({ isSuspended: true, reason: 'Contract ended' });
    expect(state.get(b)).toMatchObject({ isSuspended: true, reason: 'On leave' });
    expect(state.get(c)).toMatchObject({ isSuspended: true, reason: 'Contract ended' });
    expect((await f.app.inject({ url: '/api/session', headers: auth(session) })).statusCode).toBe(401);
    const enrol = await f.app.inject({
      method: 'POST',
      url: '/api/enrol',
      payload: { token: link.json().token, device: { name: 'Laptop', os: 'linux' } },
    });
    expect(enrol.statusCode).toBe(404);

    const [event] = await f.database.db
      .select()
      .from(adminEvents)
      .where(and(eq(adminEvents.action, 'user.bulk.disable'), eq(adminEvents.objectId, res.json().id)));
    expect(event.after).toMatchObject({
      reason: 'Contract ended',
      matched: 3,
      changed: 2,
      endedSessions: 1,
      revokedLinks: 1,
    });
  });
});

describe('POST subscriber/user/{tenant}/bulk/{id}/undo', () => {
  it('answers 401, 403, 404 for another tenant or an unknown job, 400 for a bad id', async () => {
    const owner = await f.signIn('admin@acme.test');
    const [a] = await makeUsers(owner, 'undoguard', 1);
    const job = (await bulk(owner, { ids: [a], action: 'enablePrivateAccess' })).json();
    expect((await undo(undefined, job.id)).statusCode).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect((await undo(auditor, job.id)).statusCode).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect((await undo(globex, job.id)).statusCode).toBe(404);
    expect((await undo(globex, job.id, 'globex')).statusCode).toBe(404);
    expect((await undo(owner, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const bad = await undo(owner, 'not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('params.id');
    // Nothing was undone by the refused calls.
    expect((await waitForJob(owner, job.id)).undoable).toBe(true);
  });

  it('restores exactly the users a change changed, once; a delete or an undo cannot be undone', async () => {
    const owner = await f.signIn('admin@acme.test');
    const [a, b, c] = await makeUsers(owner, 'undoflag', 3);
    // b has internet access already: turning it on for all three changes a and c only.
    expect((await stateOf([a])).get(a)?.sia).toBe(false);
    await bulk(owner, { ids: [b], action: 'enableInternetAccess' });
    const on = (await bulk(owner, { ids: [a, b, c], action: 'enableInternetAccess' })).json();
    expect(on.changed).toBe(2);

    const undone = await undo(owner, on.id);
    expect(undone.statusCode).toBe(202);
    expect(undone.json()).toMatchObject({
      action: 'disableInternetAccess',
      changed: 2,
      undoOf: on.id,
      undoable: false,
    });
    const state = await stateOf([a, b, c]);
    expect([state.get(a)?.sia, state.get(b)?.sia, state.get(c)?.sia]).toEqual([false, true, false]);
    expect(await waitForJob(owner, on.id)).toMatchObject({ undoable: false, undoneBy: undone.json().id });

    // Twice: refused, nothing changes.
    const again = await undo(owner, on.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().details).toEqual([{ path: 'params.id', message: 'validation.bulkNotUndoable' }]);
    expect((await undo(owner, undone.json().id)).statusCode).toBe(409);
    expect((await stateOf([b])).get(b)?.sia).toBe(true);

    const [event] = await f.database.db
      .select()
      .from(adminEvents)
      .where(eq(adminEvents.objectId, undone.json().id));
    expect(event).toMatchObject({ action: 'user.bulk.disableInternetAccess' });
    expect(event.after).toMatchObject({ undoOf: on.id, changed: 2 });

    const deleted = (
      await f.app.inject({
        method: 'POST',
        url: '/api/subscriber/user/acme/bulk-delete',
        headers: auth(owner),
        payload: { ids: [c] },
      })
    ).json();
    expect(deleted.undoable).toBe(false);
    expect((await undo(owner, deleted.id)).statusCode).toBe(409);
  });

  it('undoes a disable of a whole search and a group change', async () => {
    const owner = await f.signIn('admin@acme.test');
    const ids = await makeUsers(owner, 'undosearch', 4);
    const started = await bulk(owner, { match: { q: 'undosearch' }, action: 'disable', reason: 'Audit' });
    expect(started.statusCode).toBe(202);
    const finished = await waitForJob(owner, started.json().id);
    expect(finished).toMatchObject({ status: 'completed', changed: 4, undoable: true });
    const undone = await undo(owner, finished.id);
    expect(undone.json()).toMatchObject({ action: 'enable', changed: 4 });
    for (const row of (await stateOf(ids)).values())
      expect(row).toMatchObject({ isSuspended: false, reason: null });

    const groupId = f.acme.groupIds[0];
    await f.database.db.insert(userGroups).values({ tenantId: f.acme.id, userId: ids[0], groupId });
    const added = (await bulk(owner, { ids, action: 'addToGroup', groupId })).json();
    expect(added.changed).toBe(3);
    expect((await undo(owner, added.id)).json()).toMatchObject({ action: 'removeFromGroup', changed: 3 });
    const members = await f.database.db
      .select({ userId: userGroups.userId })
      .from(userGroups)
      .where(and(eq(userGroups.groupId, groupId), inArray(userGroups.userId, ids)));
    // The one who was a member before stays one.
    expect(members.map((m) => m.userId)).toEqual([ids[0]]);
  });
});
