import { LOGIN_DELAY_MAX_MS } from '@palisade/contracts';
import { and, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import { addAccountWithoutPassword, PASSWORD, readOutbox, useFixture } from '../../../test/helper';
import { signInThrottle, signups, users } from '../../db/schema';
import { accountDelayMs, sourceKey } from './session.service';

const f = useFixture();
beforeAll(() => addAccountWithoutPassword(f));
const auth = (token: string) => ({ 'x-auth-token': token });

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

  it('locks a source out of an account after five wrong passwords in a minute, not the owner elsewhere', async () => {
    const from = (remoteAddress: string, password: string) =>
      f.app.inject({
        method: 'POST',
        url: '/api/session',
        remoteAddress,
        payload: { username: 'helpdesk@acme.test', password },
      });
    for (let i = 0; i < 4; i++) expect((await from('203.0.113.7', `wrong-${i}`)).statusCode).toBe(401);
    const fifth = await from('203.0.113.7', 'wrong-5');
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json()).toMatchObject({ code: 'account_locked', errcode: 9 });
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(60);
    // Even the right password is refused from that source…
    expect((await from('203.0.113.7', PASSWORD)).statusCode).toBe(423);
    // …while the owner, signing in from elsewhere, gets in.
    expect((await from('198.51.100.20', PASSWORD)).statusCode).toBe(200);
  });

  it('counts IPv6 sources by their /64 network', () => {
    expect(sourceKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(sourceKey('192.0.2.1')).toBe('192.0.2.1');
    // Normalised as everywhere (RFC 5952), and a zone id does not make another source.
    expect(sourceKey('::1')).toBe('::/64');
    expect(sourceKey('FE80::1%eth0')).toBe('fe80::/64');
    expect(sourceKey('2001:DB8:1:2::9')).toBe('2001:db8:1:2::/64');
  });

  it('makes unknown sources wait longer after every wrong password in a row, but not a familiar one', async () => {
    const username = 'billing@acme.test';
    const attempt = (remoteAddress: string, password: string) =>
      f.app.inject({ method: 'POST', url: '/api/session', remoteAddress, payload: { username, password } });
    // The owner signed in from the office once: that source is familiar.
    expect((await attempt('192.0.2.10', PASSWORD)).statusCode).toBe(200);
    // A guesser spread over many addresses: one wrong password from each.
    for (let i = 1; i <= 10; i++) expect((await attempt(`198.18.0.${i}`, 'guess-it')).statusCode).toBe(401);
    // From the tenth in a row on, a new source must wait (1 s, doubling)…
    const held = await attempt('198.18.0.99', PASSWORD);
    expect(held.statusCode).toBe(423);
    expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // …and a burst gets nothing through while the delay runs, right password or not.
    expect((await attempt('198.18.0.100', 'guess-again')).statusCode).toBe(423);
    // The familiar source is not held back.
    expect((await attempt('192.0.2.10', PASSWORD)).statusCode).toBe(200);
    expect(accountDelayMs(9)).toBe(0);
    expect([10, 11, 12, 15].map(accountDelayMs)).toEqual([1000, 2000, 4000, 32_000]);
    expect(accountDelayMs(40)).toBe(LOGIN_DELAY_MAX_MS);
  });

  it('lets one attempt through per delay, and a wrong one doubles the next wait', async () => {
    const username = 'auditor@acme.test';
    const attempt = (remoteAddress: string, password: string) =>
      f.app.inject({ method: 'POST', url: '/api/session', remoteAddress, payload: { username, password } });
    for (let i = 1; i <= 10; i++) expect((await attempt(`198.19.0.${i}`, 'guess-it')).statusCode).toBe(401);
    expect((await attempt('198.19.0.11', 'guess-it')).statusCode).toBe(423);
    // Time passes: the account's delay after ten in a row (1 s) is over; the next attempt goes through.
    await f.database.db
      .update(signInThrottle)
      .set({ lastFailedAt: new Date(Date.now() - 1_500) })
      .where(and(eq(signInThrottle.username, username), eq(signInThrottle.source, '*')));
    expect((await attempt('198.19.0.50', 'still-guessing')).statusCode).toBe(401);
    // Eleven in a row: now 2 s.
    const next = await attempt('198.19.0.51', PASSWORD);
    expect(next.statusCode).toBe(423);
    expect(Number(next.headers['retry-after'])).toBe(2);
  });

  it('throttles unknown usernames exactly like accounts, so nothing tells which exist', async () => {
    const responses = [];
    // An account without a password (an end user) and an address nobody has.
    for (const username of ['nopassword@acme.test', 'ghost@nowhere.test']) {
      const codes = [];
      for (let i = 0; i < 6; i++) {
        const res = await f.app.inject({
          method: 'POST',
          url: '/api/session',
          remoteAddress: '203.0.113.99',
          payload: { username, password: `wrong-${i}` },
        });
        codes.push(`${res.statusCode}:${res.json().code}`);
      }
      responses.push(codes);
    }
    expect(responses[0]).toEqual([
      ...Array(4).fill('401:invalid_credentials'),
      '423:account_locked',
      '423:account_locked',
    ]);
    expect(responses[1]).toEqual(responses[0]);
  });

  it('signs up without telling whether the e-mail has an account; the verifying secret travels only by mail', async () => {
    const password = 'dolphin-autumn-marble-41';
    const base = { organisation: 'Initech', firstname: 'Bill', lastname: 'Lumbergh', password };
    const free = await f.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { ...base, tenant: 'initech', email: 'bill@initech.test' },
    });
    const taken = await f.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { ...base, tenant: 'initrode', email: 'admin@globex.test' },
    });
    // The same answer for a free and a taken address: status, shape, headers that matter.
    expect(free.statusCode).toBe(201);
    expect(taken.statusCode).toBe(201);
    expect(Object.keys(taken.json()).sort()).toEqual(Object.keys(free.json()).sort());
    expect(taken.json().transid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(free.json().email).toBe('bill@initech.test');
    const { transid } = free.json();

    // The answer's id only reads the status; it verifies nothing.
    expect((await f.app.inject({ url: `/api/user/verify/${transid}` })).statusCode).toBe(404);
    const pending = await f.app.inject({ url: `/api/trans/status/web/${transid}` });
    expect(pending.json()).toEqual({ transid, transstatus: 'pending', userstatus: 'pending' });
    for (const t of [transid, taken.json().transid]) {
      expect((await f.app.inject({ url: `/api/trans/status/web/${t}` })).json()).toMatchObject({
        transstatus: 'pending',
      });
    }

    // Not yet verified: the right password hears so, a wrong one does not.
    const notYet = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'bill@initech.test', password },
    });
    expect(notYet.json().code).toBe('email_not_verified');
    const wrongPassword = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'bill@initech.test', password: 'not-the-password' },
    });
    expect(wrongPassword.json().code).toBe('invalid_credentials');

    // The owner of the taken address is told, with no link; its workspace name is reserved like any other.
    const [told] = await readOutbox(f.database, 'admin@globex.test');
    expect(told.subject).toBe('You already have a Palisade account');
    expect(told.text).toContain('/sign-in');
    expect(told.text).not.toContain('/verify/');
    const reserved = await f.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { ...base, tenant: 'initrode', email: 'someone@else.test' },
    });
    expect(reserved.json()).toMatchObject({ code: 'tenant_exists', details: [{ path: 'body.tenant' }] });

    const [mail] = await readOutbox(f.database, 'bill@initech.test');
    const secret = /\/verify\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] as string;
    expect(secret).not.toBe(transid);
    const verify = await f.app.inject({ url: `/api/user/verify/${secret}` });
    expect(verify.json()).toEqual({ transid, userstatus: 'verified' });
    expect((await f.app.inject({ url: `/api/user/verify/${secret}` })).json()).toEqual({
      transid,
      userstatus: 'verified',
    });
    const status = await f.app.inject({ url: `/api/trans/status/web/${transid}` });
    expect(status.json()).toMatchObject({ transstatus: 'completed', userstatus: 'verified' });

    const signIn = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'bill@initech.test', password },
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ tenant: 'initech', role: 'owner', partnername: null });
    const events = await f.app.inject({
      url: '/api/events/admin/initech?limit=5',
      headers: auth(signIn.json().sessid),
    });
    expect(events.json().items.map((e: { action: string }) => e.action)).toContain('tenant.create');
  });

  it('refuses a taken workspace, a weak password and bad sign-up input, creating nothing', async () => {
    const base = { organisation: 'X', firstname: 'A', lastname: 'B', password: 'dolphin-autumn-marble-41' };
    const taken = await f.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { ...base, tenant: 'acme', email: 'new@x.test' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'tenant_exists', details: [{ path: 'body.tenant' }] });
    for (const [password, message] of [
      ['password1234', 'validation.passwordGuessable.similarToCommon'],
      ['qwertzuiop12', 'validation.passwordGuessable.straightRow'],
      ['newcomer@x.test!', 'validation.passwordContainsEmail'],
      ['newcomer-rocks-2026', 'validation.passwordContainsEmail'],
      ['go-freshworks-go-42', 'validation.passwordContainsTenant'],
    ]) {
      const weak = await f.app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { ...base, password, tenant: 'freshworks', email: 'newcomer@x.test' },
      });
      expect(weak.statusCode, password).toBe(400);
      expect(weak.json().details, password).toEqual([{ path: 'body.password', message }]);
    }
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
    expect(await readOutbox(f.database, 'new@x.test')).toEqual([]);
    expect(await readOutbox(f.database, 'newcomer@x.test')).toEqual([]);
    // Nothing reserved the name either.
    const free = await f.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { ...base, tenant: 'freshworks', email: 'other@x.test' },
    });
    expect(free.statusCode).toBe(201);
  });

  it('answers 404 for an unknown transaction', async () => {
    expect((await f.app.inject({ url: '/api/user/verify/unknown' })).statusCode).toBe(404);
    expect((await f.app.inject({ url: '/api/trans/status/web/unknown' })).statusCode).toBe(404);
  });

  it('resends a new link only for a waiting sign-up (the old one stops working), saying nothing either way', async () => {
    const payload = {
      tenant: 'hooli',
      organisation: 'Hooli',
      firstname: 'Gavin',
      lastname: 'Belson',
      email: 'gavin@hooli.test',
      password: 'dolphin-autumn-marble-41',
    };
    const { transid } = (await f.app.inject({ method: 'POST', url: '/api/signup', payload })).json();
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/signup/resend',
      payload: { email: 'gavin@hooli.test' },
    });
    expect(res.statusCode).toBe(202);
    const [newest, first] = await readOutbox(f.database, 'gavin@hooli.test');
    const secretOf = (text: string) => /\/verify\/([A-Za-z0-9_-]+)/.exec(text)?.[1] as string;
    expect((await f.app.inject({ url: `/api/user/verify/${secretOf(first.text)}` })).statusCode).toBe(404);
    expect((await f.app.inject({ url: `/api/user/verify/${secretOf(newest.text)}` })).json()).toEqual({
      transid,
      userstatus: 'verified',
    });
    for (const email of ['admin@globex.test', 'nobody@nowhere.test']) {
      const before = (await readOutbox(f.database, email)).length;
      const other = await f.app.inject({ method: 'POST', url: '/api/signup/resend', payload: { email } });
      expect(other.statusCode).toBe(202);
      expect((await readOutbox(f.database, email)).length).toBe(before);
    }
  });

  it('opens an expired sign-up again with a new link, unless its workspace name was taken meanwhile', async () => {
    const signUp = (tenant: string, email: string) =>
      f.app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: {
          tenant,
          organisation: 'X',
          firstname: 'R',
          lastname: 'H',
          email,
          password: 'dolphin-autumn-marble-41',
        },
      });
    const expire = (statusId: string) =>
      f.database.db
        .update(signups)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(signups.statusId, statusId));
    const status = async (statusId: string) =>
      (await f.app.inject({ url: `/api/trans/status/web/${statusId}` })).json().transstatus;
    const resend = (email: string) =>
      f.app.inject({ method: 'POST', url: '/api/signup/resend', payload: { email } });

    const { transid } = (await signUp('pied-piper', 'richard@piedpiper.test')).json();
    await expire(transid);
    expect(await status(transid)).toBe('expired');
    expect((await resend('richard@piedpiper.test')).statusCode).toBe(202);
    expect(await status(transid)).toBe('pending');
    const [mail] = await readOutbox(f.database, 'richard@piedpiper.test');
    const secret = /\/verify\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] as string;
    expect((await f.app.inject({ url: `/api/user/verify/${secret}` })).json()).toMatchObject({ transid });

    const lost = (await signUp('aviato', 'erlich@aviato.test')).json().transid;
    await expire(lost);
    expect((await signUp('aviato', 'someone@aviato.test')).statusCode).toBe(201);
    const mails = (await readOutbox(f.database, 'erlich@aviato.test')).length;
    expect((await resend('erlich@aviato.test')).statusCode).toBe(202);
    expect(await status(lost)).toBe('expired');
    expect((await readOutbox(f.database, 'erlich@aviato.test')).length).toBe(mails);
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
    // Kept sealed at rest: the database holds no usable secret.
    const [stored] = await f.database.db
      .select({ totpSecret: users.totpSecret })
      .from(users)
      .where(eq(users.username, 'admin@globex.test'));
    expect(stored.totpSecret).toMatch(/^v1\./);
    expect(stored.totpSecret).not.toContain(secret);

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

  it('updates the profile', async () => {
    const token = await f.signIn('partner@northwind.test');
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
  });

  it("shows a partner's branding publicly and 404s for anything else", async () => {
    const res = await f.app.inject({ url: '/api/partner/northwind' });
    expect(res.json()).toEqual({
      name: 'northwind',
      displayName: 'Northwind',
      primaryColor: '#1c5d99',
      accentColor: null,
      logo: null,
    });
    expect((await f.app.inject({ url: '/api/partner/acme' })).statusCode).toBe(404);
    expect((await f.app.inject({ url: '/api/partner/Bad_Name!' })).statusCode).toBe(400);
  });
});
