import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PASSWORD, readOutbox, useFixture } from '../../../test/helper';
import { users } from '../../db/schema';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const invite = {
  email: 'new.admin@acme.test',
  firstname: 'New',
  lastname: 'Admin',
  role: 'helpdesk',
  customRoleId: null,
};

async function idOf(username: string) {
  const [row] = await f.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  return row.id;
}

async function inviteLink(email: string) {
  const mails = await readOutbox(f.database, email);
  return /\/verify\/([A-Za-z0-9_-]+)/.exec(mails[0].text)?.[1] as string;
}

describe('administrators', () => {
  it('invite: 401, 403, other tenant 404, 400, taken e-mail 409, then accept by link and sign in', async () => {
    const url = '/api/admins/acme/invite';
    expect((await f.app.inject({ method: 'POST', url, payload: invite })).statusCode).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect(
      (await f.app.inject({ method: 'POST', url, headers: auth(auditor), payload: invite })).statusCode,
    ).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect(
      (await f.app.inject({ method: 'POST', url, headers: auth(globex), payload: invite })).statusCode,
    ).toBe(404);
    const admin = await f.signIn('admin@acme.test');
    const bad = await f.app.inject({
      method: 'POST',
      url,
      headers: auth(admin),
      payload: { ...invite, email: 'x', role: 'pilot' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.email', 'body.role']);
    const taken = await f.app.inject({
      method: 'POST',
      url,
      headers: auth(admin),
      payload: { ...invite, email: 'admin@globex.test' },
    });
    expect(taken.statusCode).toBe(409);

    const res = await f.app.inject({ method: 'POST', url, headers: auth(admin), payload: invite });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      username: 'new.admin@acme.test',
      role: 'helpdesk',
      status: 'invited',
    });
    const transid = await inviteLink('new.admin@acme.test');
    const before = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'new.admin@acme.test', password: 'chosen-password-1' },
    });
    expect(before.statusCode).toBe(401);

    const open = await f.app.inject({ url: `/api/invite/${transid}` });
    expect(open.json()).toMatchObject({ email: 'new.admin@acme.test', tenantDisplayName: 'ACME' });
    const short = await f.app.inject({
      method: 'POST',
      url: `/api/invite/${transid}/accept`,
      payload: { password: 'short' },
    });
    expect(short.json().details).toEqual([{ path: 'body.password', message: 'validation.passwordTooShort' }]);
    // The password policy: not guessable, not the address, not the workspace; the invitation stays open.
    for (const [password, message] of [
      ['password1234', 'validation.passwordGuessable.similarToCommon'],
      ['new.admin-is-here-2026', 'validation.passwordContainsEmail'],
      ['the-acme-crew-forever', 'validation.passwordContainsTenant'],
    ]) {
      const refused = await f.app.inject({
        method: 'POST',
        url: `/api/invite/${transid}/accept`,
        payload: { password },
      });
      expect(refused.statusCode, password).toBe(400);
      expect(refused.json().details, password).toEqual([{ path: 'body.password', message }]);
    }
    expect((await f.app.inject({ url: `/api/invite/${transid}` })).statusCode).toBe(200);
    expect(
      (
        await f.app.inject({
          method: 'POST',
          url: `/api/invite/${transid}/accept`,
          payload: { password: 'chosen-password-1' },
        })
      ).json(),
    ).toEqual({ ok: true });
    expect(
      (
        await f.app.inject({
          method: 'POST',
          url: `/api/invite/${transid}/accept`,
          payload: { password: 'chosen-password-2' },
        })
      ).statusCode,
    ).toBe(410);
    expect((await f.app.inject({ url: '/api/invite/unknown' })).statusCode).toBe(404);
    expect(await f.signIn('new.admin@acme.test', 'chosen-password-1')).toBeTruthy();
    const list = await f.app.inject({ url: '/api/admins/acme?q=new.admin', headers: auth(admin) });
    expect(list.json().items).toEqual([
      expect.objectContaining({ username: 'new.admin@acme.test', status: 'active' }),
    ]);
  });

  it('suspend signs the administrator out and blocks sign-in; reinstating lets them back', async () => {
    const admin = await f.signIn('admin@acme.test');
    const helpdeskToken = await f.signIn('helpdesk@acme.test');
    const id = await idOf('helpdesk@acme.test');
    const url = `/api/admins/acme/${id}/suspension`;
    expect((await f.app.inject({ method: 'PUT', url, payload: { suspended: true } })).statusCode).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect(
      (await f.app.inject({ method: 'PUT', url, headers: auth(auditor), payload: { suspended: true } }))
        .statusCode,
    ).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect(
      (
        await f.app.inject({
          method: 'PUT',
          url: `/api/admins/globex/${id}/suspension`,
          headers: auth(globex),
          payload: { suspended: true },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await f.app.inject({ method: 'PUT', url, headers: auth(admin), payload: { suspended: 'yes' } }))
        .statusCode,
    ).toBe(400);

    const res = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(admin),
      payload: { suspended: true },
    });
    expect(res.json().status).toBe('suspended');
    expect((await f.app.inject({ url: '/api/session', headers: auth(helpdeskToken) })).statusCode).toBe(401);
    const blocked = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'helpdesk@acme.test', password: PASSWORD },
    });
    expect(blocked.json()).toMatchObject({ code: 'account_suspended', errcode: 18 });
    await f.app.inject({ method: 'PUT', url, headers: auth(admin), payload: { suspended: false } });
    expect(await f.signIn('helpdesk@acme.test')).toBeTruthy();
  });

  it('removes administrators but never the last owner', async () => {
    const admin = await f.signIn('admin@acme.test');
    const ownerId = await idOf('admin@acme.test');
    const last = await f.app.inject({
      method: 'DELETE',
      url: `/api/admins/acme/${ownerId}`,
      headers: auth(admin),
    });
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe('last_owner');
    expect(
      (
        await f.app.inject({
          method: 'PUT',
          url: `/api/admins/acme/${ownerId}/suspension`,
          headers: auth(admin),
          payload: { suspended: true },
        })
      ).statusCode,
    ).toBe(409);
    const billingId = await idOf('billing@acme.test');
    expect((await f.app.inject({ method: 'DELETE', url: `/api/admins/acme/${billingId}` })).statusCode).toBe(
      401,
    );
    const globex = await f.signIn('admin@globex.test');
    expect(
      (await f.app.inject({ method: 'DELETE', url: `/api/admins/acme/${billingId}`, headers: auth(globex) }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await f.app.inject({ method: 'DELETE', url: `/api/admins/acme/${billingId}`, headers: auth(admin) })
      ).json(),
    ).toEqual({ deleted: true });
    expect(
      (await f.app.inject({ method: 'DELETE', url: `/api/admins/acme/${billingId}`, headers: auth(admin) }))
        .statusCode,
    ).toBe(404);
  });
});
