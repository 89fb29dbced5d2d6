import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { PASSWORD, setVerified, useFixture } from '../../../test/helper';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

async function outbox(to: string) {
  const res = await f.app.inject({ url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
  return res.json() as Array<{ subject: string; text: string }>;
}

describe('session API', () => {
  it('signs in, reads the session and signs out', async () => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'Admin@Acme.test', password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.sessid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({
      username: 'admin@acme.test',
      tenant: 'acme',
      role: 'owner',
      usertype: 1,
      partnername: 'northwind',
      tenantTheme: 'light',
    });
    const session = await f.app.inject({ url: '/api/session', headers: auth(body.sessid) });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ userid: body.userid, tenant: 'acme' });
    expect(session.json()).not.toHaveProperty('sessid');
    expect(
      (await f.app.inject({ method: 'DELETE', url: '/api/session', headers: auth(body.sessid) })).json(),
    ).toEqual({ ok: true });
    const after = await f.app.inject({ url: '/api/session', headers: auth(body.sessid) });
    expect(after.statusCode).toBe(401);
    expect(after.json().errcode).toBe(1);
  });

  it('stores only a hash of the session id', async () => {
    const token = await f.signIn('admin@acme.test');
    const rows = await f.database.db.execute(`select id_hash from sessions` as never);
    const hashes = (rows as unknown as { rows: Array<{ id_hash: string }> }).rows.map((r) => r.id_hash);
    expect(hashes).not.toContain(token);
    expect(hashes.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
  });

  it('rejects bad sign-in input with details, and wrong passwords with errcode 8', async () => {
    const bad = await f.app.inject({ method: 'POST', url: '/api/session', payload: { username: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.password', 'body.username']);
    const wrong = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'admin@globex.test', password: 'wrong-password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ errcode: 8, code: 'invalid_credentials' });
    const unknown = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'ghost@nowhere.test', password: 'x' },
    });
    expect(unknown.json().code).toBe('invalid_credentials');
  });

  it('locks the account after five failures in a minute, even for the right password', async () => {
    for (let i = 0; i < 4; i++) {
      const res = await f.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { username: 'helpdesk@acme.test', password: `wrong-${i}` },
      });
      expect(res.statusCode).toBe(401);
    }
    const fifth = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'helpdesk@acme.test', password: 'wrong-5' },
    });
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json()).toMatchObject({ code: 'account_locked', errcode: 9 });
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(60);
    const right = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'helpdesk@acme.test', password: PASSWORD },
    });
    expect(right.statusCode).toBe(423);
  });

  it('signs up a tenant, verifies through the e-mailed transaction, then signs in', async () => {
    const payload = {
      tenant: 'initech',
      organisation: 'Initech',
      firstname: 'Bill',
      lastname: 'Lumbergh',
      email: 'bill@initech.test',
      password: 'a-long-password',
    };
    const res = await f.app.inject({ method: 'POST', url: '/api/signup', payload });
    expect(res.statusCode).toBe(201);
    const { transid } = res.json();
    const notYet = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: payload.email, password: payload.password },
    });
    expect(notYet.json().code).toBe('email_not_verified');

    const [mail] = await outbox('bill@initech.test');
    expect(mail.text).toContain(`/verify/${transid}`);
    const pending = await f.app.inject({ url: `/api/trans/status/web/${transid}` });
    expect(pending.json()).toMatchObject({ transstatus: 'pending', userstatus: 'pending' });
    const verify = await f.app.inject({ url: `/api/user/verify/${transid}` });
    expect(verify.json()).toEqual({ transid, userstatus: 'verified' });
    const status = await f.app.inject({ url: `/api/trans/status/web/${transid}` });
    expect(status.json()).toMatchObject({ transstatus: 'completed', userstatus: 'verified' });

    const signIn = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: payload.email, password: payload.password },
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ tenant: 'initech', role: 'owner', partnername: null });
  });

  it('refuses a taken workspace or e-mail and bad sign-up input, creating nothing', async () => {
    const base = { organisation: 'X', firstname: 'A', lastname: 'B', password: 'a-long-password' };
    const taken = await f.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { ...base, tenant: 'acme', email: 'new@x.test' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'tenant_exists', details: [{ path: 'body.tenant' }] });
    const email = await f.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { ...base, tenant: 'fresh', email: 'admin@acme.test' },
    });
    expect(email.json().code).toBe('user_exists');
    const bad = await f.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { ...base, tenant: '-Bad Name', email: 'x', password: 'short' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { message: string }) => d.message)
        .sort(),
    ).toEqual(['validation.email', 'validation.passwordTooShort', 'validation.tenantName']);
    const reserved = await f.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { ...base, tenant: 'locations', email: 'new@x.test' },
    });
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().details).toEqual([
      { path: 'body.tenant', message: 'validation.tenantNameReserved' },
    ]);
    expect(await outbox('new@x.test')).toEqual([]);
  });

  it('answers 404 for an unknown transaction', async () => {
    expect((await f.app.inject({ url: '/api/user/verify/unknown' })).statusCode).toBe(404);
    expect((await f.app.inject({ url: '/api/trans/status/web/unknown' })).statusCode).toBe(404);
  });

  it('resends a verification mail only for unverified accounts, saying nothing either way', async () => {
    await setVerified(f.database, 'auditor@acme.test', false);
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/signup/resend',
      payload: { email: 'auditor@acme.test' },
    });
    expect(res.statusCode).toBe(202);
    expect((await outbox('auditor@acme.test')).length).toBe(1);
    const other = await f.app.inject({
      method: 'POST',
      url: '/api/signup/resend',
      payload: { email: 'admin@globex.test' },
    });
    expect(other.statusCode).toBe(202);
    expect(await outbox('admin@globex.test')).toEqual([]);
    await setVerified(f.database, 'auditor@acme.test', true);
  });

  it('enrols TOTP and then requires the code at sign-in', async () => {
    const token = await f.signIn('admin@globex.test');
    expect((await f.app.inject({ method: 'POST', url: '/api/me/totp' })).statusCode).toBe(401);
    const enrol = await f.app.inject({ method: 'POST', url: '/api/me/totp', headers: auth(token) });
    const { secret, qr, otpauthUrl } = enrol.json();
    expect(qr).toMatch(/^data:image\/png;base64,/);
    expect(otpauthUrl).toContain('otpauth://totp/');
    const wrong = await f.app.inject({
      method: 'POST',
      url: '/api/me/totp/verify',
      headers: auth(token),
      payload: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    const bad = await f.app.inject({
      method: 'POST',
      url: '/api/me/totp/verify',
      headers: auth(token),
      payload: { code: '12' },
    });
    expect(bad.json().details[0]).toEqual({ path: 'body.code', message: 'validation.otp' });
    const ok = await f.app.inject({
      method: 'POST',
      url: '/api/me/totp/verify',
      headers: auth(token),
      payload: { code: await generate({ secret }) },
    });
    expect(ok.json()).toEqual({ ok: true });

    const first = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'admin@globex.test', password: PASSWORD },
    });
    expect(first.json()).toEqual({ otpRequired: true, transid: expect.any(String) });
    const { transid } = first.json();
    const nope = await f.app.inject({
      method: 'POST',
      url: '/api/session/otp',
      payload: { transid, code: '000000' },
    });
    expect(nope.json().code).toBe('otp_invalid');
    const second = await f.app.inject({
      method: 'POST',
      url: '/api/session/otp',
      payload: { transid, code: await generate({ secret }) },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ tenant: 'globex', totpEnabled: true, sessid: expect.any(String) });
    const reused = await f.app.inject({
      method: 'POST',
      url: '/api/session/otp',
      payload: { transid, code: await generate({ secret }) },
    });
    expect(reused.json().code).toBe('transaction_expired');
  });

  it('updates the profile and changes the password with the current one only', async () => {
    const token = await f.signIn('auditor@acme.test');
    const profile = await f.app.inject({
      method: 'PUT',
      url: '/api/me',
      headers: auth(token),
      payload: { firstname: 'Aud', lastname: 'It', language: 'de', theme: 'dark', palette: 'modern' },
    });
    expect(profile.json()).toMatchObject({
      firstname: 'Aud',
      language: 'de',
      theme: 'dark',
      palette: 'modern',
    });
    const badProfile = await f.app.inject({
      method: 'PUT',
      url: '/api/me',
      headers: auth(token),
      payload: { firstname: 'A', lastname: 'B', language: 'fr', theme: 'neon', palette: null },
    });
    expect(badProfile.statusCode).toBe(400);
    const wrong = await f.app.inject({
      method: 'PUT',
      url: '/api/me/password',
      headers: auth(token),
      payload: { current: 'nope', next: 'another-long-one' },
    });
    expect(wrong.json()).toMatchObject({ code: 'password_incorrect', details: [{ path: 'body.current' }] });
    const ok = await f.app.inject({
      method: 'PUT',
      url: '/api/me/password',
      headers: auth(token),
      payload: { current: PASSWORD, next: 'another-long-one' },
    });
    expect(ok.statusCode).toBe(200);
    expect(await f.signIn('auditor@acme.test', 'another-long-one')).toBeTruthy();
  });

  it("shows a partner's branding publicly and 404s for anything else", async () => {
    const res = await f.app.inject({ url: '/api/partner/northwind' });
    expect(res.json()).toEqual({
      name: 'northwind',
      displayName: 'Northwind',
      primaryColor: '#1c5d99',
      logo: null,
    });
    expect((await f.app.inject({ url: '/api/partner/acme' })).statusCode).toBe(404);
    expect((await f.app.inject({ url: '/api/partner/Bad_Name!' })).statusCode).toBe(400);
  });
});
