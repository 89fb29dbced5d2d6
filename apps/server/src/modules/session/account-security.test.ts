import { and, eq } from 'drizzle-orm';
import { generate, generateSecret } from 'otplib';
import { describe, expect, it } from 'vitest';
import { PASSWORD, useFixture } from '../../../test/helper';
import { apiTokens, sessions, users } from '../../db/schema';
import { createSecretBox } from '../../lib/secret-box';
import { sealClearTotpSecrets } from './session.service';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** Turns TOTP on for an account through the API; answers the secret its authenticator app would hold. */
async function enrolTotp(username: string): Promise<string> {
  const token = await f.signIn(username);
  const { secret } = (
    await f.app.inject({ method: 'POST', url: '/api/me/totp', headers: auth(token) })
  ).json();
  const ok = await f.app.inject({
    method: 'POST',
    url: '/api/me/totp/verify',
    headers: auth(token),
    payload: { code: await generate({ secret }) },
  });
  expect(ok.statusCode).toBe(200);
  return secret;
}

async function passwordStep(username: string, password = PASSWORD) {
  return f.app.inject({ method: 'POST', url: '/api/session', payload: { username, password } });
}

/** A code that is certainly wrong now: one the secret does not produce in this window. */
async function wrongCode(secret: string) {
  const right = await generate({ secret });
  return right === '000000' ? '111111' : '000000';
}

describe('second factor lockout', () => {
  it('counts wrong codes across password steps: the fifth locks the account, even for the right code', async () => {
    const secret = await enrolTotp('helpdesk@acme.test');
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const step = await passwordStep('helpdesk@acme.test');
      expect(step.json()).toMatchObject({ otpRequired: true });
      const res = await f.app.inject({
        method: 'POST',
        url: '/api/session/otp',
        payload: { transid: step.json().transid, code: await wrongCode(secret) },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([400, 400, 400, 400, 423]);
    // Locked: neither the password step nor a right code gets through now.
    const locked = await passwordStep('helpdesk@acme.test');
    expect(locked.statusCode).toBe(423);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    // A wrong password learns nothing more than any wrong password.
    expect((await passwordStep('helpdesk@acme.test', 'not-the-password')).statusCode).toBe(401);
  });

  it('lets a completed sign-in start the count again', async () => {
    const secret = await enrolTotp('billing@acme.test');
    for (let i = 0; i < 4; i++) {
      const step = await passwordStep('billing@acme.test');
      await f.app.inject({
        method: 'POST',
        url: '/api/session/otp',
        payload: { transid: step.json().transid, code: await wrongCode(secret) },
      });
    }
    const step = await passwordStep('billing@acme.test');
    const good = await f.app.inject({
      method: 'POST',
      url: '/api/session/otp',
      payload: { transid: step.json().transid, code: await generate({ secret }) },
    });
    expect(good.statusCode).toBe(200);
    const next = await passwordStep('billing@acme.test');
    const wrong = await f.app.inject({
      method: 'POST',
      url: '/api/session/otp',
      payload: { transid: next.json().transid, code: await wrongCode(secret) },
    });
    expect(wrong.statusCode).toBe(400);
  });

  it('counts wrong codes when confirming or turning off TOTP, and then refuses both (423)', async () => {
    const token = await f.signIn('auditor@acme.test');
    const { secret } = (
      await f.app.inject({ method: 'POST', url: '/api/me/totp', headers: auth(token) })
    ).json();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await f.app.inject({
        method: 'POST',
        url: '/api/me/totp/verify',
        headers: auth(token),
        payload: { code: await wrongCode(secret) },
      });
      statuses.push(res.statusCode);
    }
    // Turning TOTP off with wrong codes continues the same count (three so far).
    for (let i = 0; i < 2; i++) {
      const res = await f.app.inject({
        method: 'DELETE',
        url: '/api/me/totp',
        headers: auth(token),
        payload: { code: await wrongCode(secret) },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 423]);
    // Locked: even the right code does not confirm, and sign-in is refused.
    const confirm = await f.app.inject({
      method: 'POST',
      url: '/api/me/totp/verify',
      headers: auth(token),
      payload: { code: await generate({ secret }) },
    });
    expect(confirm.statusCode).toBe(423);
    expect((await passwordStep('auditor@acme.test')).statusCode).toBe(423);
    const [row] = await f.database.db
      .select({ isTotpEnabled: users.isTotpEnabled })
      .from(users)
      .where(eq(users.username, 'auditor@acme.test'));
    expect(row.isTotpEnabled).toBe(false);
  });

  it('seals TOTP secrets kept in clear by an earlier version, and sign-in still takes their codes', async () => {
    const secret = generateSecret();
    await f.database.db
      .update(users)
      .set({ totpSecret: secret, isTotpEnabled: true })
      .where(eq(users.username, 'admin@globex.test'));
    // The fixture's app already sealed what it found at start; sealing again is what a restart does.
    const box = createSecretBox(Buffer.from(f.config.secretKey as string, 'hex'));
    expect(await sealClearTotpSecrets(f.database, box)).toBe(1);
    expect(await sealClearTotpSecrets(f.database, box)).toBe(0);
    const [row] = await f.database.db
      .select({ totpSecret: users.totpSecret })
      .from(users)
      .where(eq(users.username, 'admin@globex.test'));
    expect(row.totpSecret).toMatch(/^v1\./);
    const step = await passwordStep('admin@globex.test');
    const done = await f.app.inject({
      method: 'POST',
      url: '/api/session/otp',
      payload: { transid: step.json().transid, code: await generate({ secret }) },
    });
    expect(done.statusCode).toBe(200);
  });
});

describe('PUT /me/password', () => {
  const url = '/api/me/password';

  it('answers 401 without a session and 400 with details for bad input', async () => {
    expect((await f.app.inject({ method: 'PUT', url, payload: {} })).statusCode).toBe(401);
    const token = await f.signIn('partner@northwind.test');
    const bad = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(token),
      payload: { current: '', next: 'short', revokeTokens: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.current', 'body.next', 'body.revokeTokens']);
  });

  it('refuses a wrong current password and a guessable new one, changing nothing', async () => {
    const token = await f.signIn('partner@northwind.test');
    const other = await f.signIn('partner@northwind.test');
    const wrong = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(token),
      payload: { current: 'nope', next: 'dolphin-autumn-marble-41' },
    });
    expect(wrong.json()).toMatchObject({ code: 'password_incorrect', details: [{ path: 'body.current' }] });
    for (const [next, message] of [
      ['Passwort12345', 'validation.passwordGuessable.similarToCommon'],
      ['partner-of-the-year', 'validation.passwordContainsEmail'],
      ['northwind-2026-rules', 'validation.passwordContainsTenant'],
    ]) {
      const weak = await f.app.inject({
        method: 'PUT',
        url,
        headers: auth(token),
        payload: { current: PASSWORD, next },
      });
      expect(weak.statusCode, next).toBe(400);
      expect(weak.json().details, next).toEqual([{ path: 'body.next', message }]);
    }
    // Still the old password, and the other session still works.
    expect(await f.signIn('partner@northwind.test')).toBeTruthy();
    expect((await f.app.inject({ url: '/api/session', headers: auth(other) })).statusCode).toBe(200);
  });

  it("ends the account's other sessions, keeps this one, and revokes its tokens only when asked", async () => {
    const owner = await f.signIn('admin@acme.test');
    const elsewhere = await f.signIn('admin@acme.test');
    const created = await f.app.inject({
      method: 'POST',
      url: '/api/me/tokens',
      headers: auth(owner),
      payload: { name: 'CI', role: 'auditor' },
    });
    const { secret } = created.json();
    const keep = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(owner),
      payload: { current: PASSWORD, next: 'dolphin-autumn-marble-41' },
    });
    expect(keep.json()).toEqual({ ok: true, endedSessions: 1, revokedTokens: 0 });
    expect((await f.app.inject({ url: '/api/session', headers: auth(owner) })).statusCode).toBe(200);
    expect((await f.app.inject({ url: '/api/session', headers: auth(elsewhere) })).statusCode).toBe(401);
    expect(
      (await f.app.inject({ url: '/api/subscriber/user/acme', headers: bearer(secret) })).statusCode,
    ).toBe(200);

    const revoke = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(owner),
      payload: { current: 'dolphin-autumn-marble-41', next: 'kettle-violet-harbour-77', revokeTokens: true },
    });
    expect(revoke.json()).toEqual({ ok: true, endedSessions: 0, revokedTokens: 1 });
    expect(
      (await f.app.inject({ url: '/api/subscriber/user/acme', headers: bearer(secret) })).statusCode,
    ).toBe(401);
    expect(await f.signIn('admin@acme.test', 'kettle-violet-harbour-77')).toBeTruthy();
    const [ownerRow] = await f.database.db.select().from(users).where(eq(users.username, 'admin@acme.test'));
    const live = await f.database.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tenantId, ownerRow.tenantId), eq(sessions.userId, ownerRow.id)));
    expect(live.length).toBe(2);
    const [token] = await f.database.db.select().from(apiTokens).where(eq(apiTokens.userId, ownerRow.id));
    expect(token.revokedAt).not.toBeNull();
    // The change is in the admin event log, with what it ended.
    const events = await f.app.inject({
      url: '/api/events/admin/acme?action=account.password.change',
      headers: auth(owner),
    });
    expect(events.json().items[0]).toMatchObject({
      action: 'account.password.change',
      objectName: 'admin@acme.test',
    });
  });
});
