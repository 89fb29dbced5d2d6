import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PASSWORD, useFixture } from '../../../test/helper';
import { adminEvents, users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

async function newUser(owner: string, name: string) {
  const res = await f.app.inject({
    method: 'POST',
    url: '/api/subscriber/user/acme',
    headers: auth(owner),
    payload: { username: `${name}@acme.test`, firstname: name, lastname: 'Status' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const setStatus = (token: string, id: string, payload: unknown, tenant = 'acme') =>
  f.app.inject({
    method: 'PUT',
    url: `/api/subscriber/user/${tenant}/${id}/status`,
    headers: auth(token),
    payload: payload as object,
  });

const createLink = (token: string, id: string) =>
  f.app.inject({
    method: 'POST',
    url: `/api/enrolment/acme/users/${id}/link`,
    headers: auth(token),
    payload: {},
  });

const enrolWith = (token: string) =>
  f.app.inject({
    method: 'POST',
    url: '/api/enrol',
    payload: { token, device: { name: 'Laptop', os: 'linux' } },
  });

describe('PUT /subscriber/user/{tenant}/{id}/status', () => {
  it('answers 401, 403, 404 for another tenant, and 400 with details', async () => {
    const owner = await f.signIn('admin@acme.test');
    const id = await newUser(owner, 'status.guard');
    expect(
      (await f.app.inject({ method: 'PUT', url: `/api/subscriber/user/acme/${id}/status` })).statusCode,
    ).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect((await setStatus(auditor, id, { status: 'disabled', reason: 'x' })).statusCode).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect((await setStatus(globex, id, { status: 'disabled', reason: 'x' })).statusCode).toBe(404);
    expect((await setStatus(globex, id, { status: 'disabled', reason: 'x' }, 'globex')).statusCode).toBe(404);
    const noReason = await setStatus(owner, id, { status: 'disabled' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details).toEqual([{ path: 'body.reason', message: 'validation.required' }]);
    const bad = await setStatus(owner, id, { status: 'gone', reason: 'x'.repeat(301) });
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.reason', 'body.status']);
    const [row] = await f.database.db.select().from(users).where(eq(users.id, id));
    expect(row.isSuspended).toBe(false);
  });

  it('disables with the reason and who did it: no sign-in, no link, no device, and its pending link is revoked', async () => {
    const owner = await f.signIn('admin@acme.test');
    const id = await newUser(owner, 'status.off');
    // The user can sign in (end users with a password) and has a link waiting.
    await f.database.db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, id));
    const session = await f.signIn('status.off@acme.test');
    const pending = (await createLink(owner, id)).json().token as string;

    const res = await setStatus(owner, id, { status: 'disabled', reason: '  Left the company  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'disabled',
      statusReason: 'Left the company',
      statusChangedBy: 'admin@acme.test',
    });
    expect(res.json().statusChangedAt).not.toBeNull();

    expect((await f.app.inject({ url: '/api/session', headers: auth(session) })).statusCode).toBe(401);
    const signIn = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'status.off@acme.test', password: PASSWORD },
    });
    expect(signIn.json()).toMatchObject({ code: 'account_suspended' });
    expect((await enrolWith(pending)).statusCode).toBe(404);
    const link = await createLink(owner, id);
    expect(link.statusCode).toBe(409);
    expect(link.json().details).toEqual([{ path: 'params.id', message: 'validation.userDisabled' }]);

    const [event] = await f.database.db
      .select()
      .from(adminEvents)
      .where(eq(adminEvents.action, 'user.disable'));
    expect(event).toMatchObject({ objectId: id, actorName: 'admin@acme.test' });
    expect(event.after).toMatchObject({
      status: 'disabled',
      reason: 'Left the company',
      endedSessions: 1,
      revokedLinks: 1,
    });

    // Enabled again: links and sign-in work; doing it twice changes nothing more.
    const enabled = await setStatus(owner, id, { status: 'active' });
    expect(enabled.json()).toMatchObject({ status: 'active', statusReason: null });
    expect((await setStatus(owner, id, { status: 'active' })).json().statusChangedAt).toBe(
      enabled.json().statusChangedAt,
    );
    expect((await createLink(owner, id)).statusCode).toBe(201);
    expect(await f.signIn('status.off@acme.test')).toBeTruthy();
  });

  it('refuses a device for a user disabled after the link was made, leaving the link unused', async () => {
    const owner = await f.signIn('admin@acme.test');
    const id = await newUser(owner, 'status.late');
    const { token } = (await createLink(owner, id)).json();
    // Disabled behind the link's back (as an older server would have left it): the enrolment still refuses.
    await f.database.db.update(users).set({ isSuspended: true }).where(eq(users.id, id));
    const refused = await enrolWith(token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'account_suspended' });
    await f.database.db.update(users).set({ isSuspended: false }).where(eq(users.id, id));
    expect((await enrolWith(token)).statusCode).toBe(201);
  });

  it('shows the status in the list and on the user', async () => {
    const owner = await f.signIn('admin@acme.test');
    const id = await newUser(owner, 'status.shown');
    await setStatus(owner, id, { status: 'disabled', reason: 'Lost laptop' });
    const one = await f.app.inject({ url: `/api/subscriber/user/acme/${id}`, headers: auth(owner) });
    expect(one.json()).toMatchObject({ status: 'disabled', statusReason: 'Lost laptop' });
    const list = await f.app.inject({
      url: '/api/subscriber/user/acme?q=status.shown',
      headers: auth(owner),
    });
    expect(list.json().items).toEqual([expect.objectContaining({ id, status: 'disabled' })]);
  });
});
