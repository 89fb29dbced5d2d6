import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Fixture, PASSWORD, useFixture } from '../../../test/helper';
import { adminEvents, apiTokens } from '../../db/schema';
import { hashToken } from '../../lib/credentials';

const session = (token: string) => ({ 'x-auth-token': token });
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function createToken(f: Fixture, sessionId: string, body: Record<string, unknown>) {
  return f.app.inject({ method: 'POST', url: '/api/me/tokens', headers: session(sessionId), payload: body });
}

/** Creates a token and returns its answer (with the secret). */
async function newToken(f: Fixture, sessionId: string, body: Record<string, unknown>) {
  const res = await createToken(f, sessionId, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string; prefix: string; permissions: string[] };
}

const detailPaths = (body: { details?: { path: string; message: string }[] }) =>
  (body.details ?? []).map((d) => `${d.path}:${d.message}`);

describe('API tokens', () => {
  const f = useFixture();

  describe('GET/POST/DELETE /me/tokens', () => {
    it('requires a session (401, errcode 1)', async () => {
      for (const [method, url] of [
        ['GET', '/api/me/tokens'],
        ['POST', '/api/me/tokens'],
        ['DELETE', '/api/me/tokens/00000000-0000-4000-8000-000000000000'],
      ] as const) {
        const res = await f.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ errcode: 1, code: 'unauthenticated' });
      }
    });

    it('answers 403 to an end user (usertype 0), before looking at the input', async () => {
      const enduser = await f.signIn('enduser@acme.test');
      expect((await f.app.inject({ url: '/api/me/tokens', headers: session(enduser) })).statusCode).toBe(403);
      const created = await createToken(f, enduser, { name: '', permissions: ['nope'] });
      expect(created.statusCode).toBe(403);
      expect(created.json()).toMatchObject({ errcode: 3, code: 'forbidden' });
    });

    it('answers 403 when a token calls the token endpoints, sign-out or the account', async () => {
      const admin = await f.signIn('admin@acme.test');
      const { id, secret } = await newToken(f, admin, { name: 'Self-manager', role: 'admin' });
      const calls = [
        { method: 'GET', url: '/api/me/tokens' },
        { method: 'POST', url: '/api/me/tokens', payload: { name: 'Child', role: 'auditor' } },
        { method: 'DELETE', url: `/api/me/tokens/${id}` },
        { method: 'DELETE', url: '/api/session' },
        { method: 'PUT', url: '/api/me/password', payload: { current: 'x', next: 'y'.repeat(12) } },
      ] as const;
      for (const call of calls) {
        const res = await f.app.inject({ ...call, headers: bearer(secret) });
        expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      }
      // The token still works, and the session was not signed out.
      expect(
        (await f.app.inject({ url: '/api/subscriber/user/acme', headers: bearer(secret) })).statusCode,
      ).toBe(200);
      expect((await f.app.inject({ url: '/api/session', headers: session(admin) })).statusCode).toBe(200);
    });

    it("answers 404 when revoking another administrator's or another tenant's token", async () => {
      const admin = await f.signIn('admin@acme.test');
      const { id } = await newToken(f, admin, { name: 'Mine', role: 'auditor' });
      for (const other of ['auditor@acme.test', 'admin@globex.test', 'partner@northwind.test']) {
        const res = await f.app.inject({
          method: 'DELETE',
          url: `/api/me/tokens/${id}`,
          headers: session(await f.signIn(other)),
        });
        expect(res.statusCode, other).toBe(404);
        expect(res.json().code).toBe('not_found');
      }
      const [row] = await f.database.db.select().from(apiTokens).where(eq(apiTokens.id, id));
      expect(row.revokedAt).toBeNull();
      // Nor are they listed to the others.
      const globex = await f.signIn('admin@globex.test');
      const list = await f.app.inject({ url: '/api/me/tokens', headers: session(globex) });
      expect(list.json().items.map((t: { id: string }) => t.id)).not.toContain(id);
    });

    it('rejects bad input with field details (400)', async () => {
      const admin = await f.signIn('admin@acme.test');
      const cases: [Record<string, unknown>, string[]][] = [
        [{ name: '  ', role: 'auditor' }, ['body.name:validation.required']],
        [{ name: 'x'.repeat(101), role: 'auditor' }, ['body.name:validation.tooLong']],
        [{ name: 'No scope' }, ['body.permissions:validation.required']],
        [{ name: 'Empty', permissions: [] }, ['body.permissions:validation.required']],
        [{ name: 'Bad', permissions: ['users:fly'] }, ['body.permissions.0:validation.permission']],
        [
          { name: 'Both', role: 'auditor', permissions: ['users:view'] },
          ['body.permissions:validation.roleOrPermissions'],
        ],
        [{ name: 'Role', role: 'user' }, ['body.role:validation.choice']],
        [{ name: 'Never', role: 'auditor', expiresInDays: 0 }, ['body.expiresInDays:validation.expiryDays']],
        [{ name: 'Long', role: 'auditor', expiresInDays: 366 }, ['body.expiresInDays:validation.expiryDays']],
        [{ name: 'Half', role: 'auditor', expiresInDays: 1.5 }, ['body.expiresInDays:validation.expiryDays']],
        [
          { name: 'Nothing', permissions: ['users:create'], isReadOnly: true },
          ['body.permissions:validation.readOnlyNothing'],
        ],
      ];
      for (const [body, expected] of cases) {
        const res = await createToken(f, admin, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(detailPaths(res.json()), JSON.stringify(body)).toEqual(expect.arrayContaining(expected));
      }
      const revoke = await f.app.inject({
        method: 'DELETE',
        url: '/api/me/tokens/nope',
        headers: session(admin),
      });
      expect(revoke.statusCode).toBe(400);
      expect(revoke.json().details[0].path).toBe('params.id');
    });

    it('asks for the password or a TOTP code again for a token past 30 days or never expiring', async () => {
      const admin = await f.signIn('admin@acme.test');
      const count = async () =>
        (await f.database.db.select().from(apiTokens).where(eq(apiTokens.name, 'Long-lived'))).length;
      for (const expiresInDays of [31, 365, null]) {
        const res = await createToken(f, admin, { name: 'Long-lived', role: 'auditor', expiresInDays });
        expect(res.statusCode, String(expiresInDays)).toBe(403);
        expect(res.json()).toMatchObject({ errcode: 28, code: 'reauthentication_required' });
      }
      const wrong = await createToken(f, admin, {
        name: 'Long-lived',
        role: 'auditor',
        expiresInDays: null,
        reauth: { password: 'wrong-password-here' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(detailPaths(wrong.json())).toEqual(['body.reauth.password:validation.passwordIncorrect']);
      expect(await count()).toBe(0);
      // 30 days and less, the default: the session suffices.
      await newToken(f, admin, { name: 'Short-lived', role: 'auditor' });
      await newToken(f, admin, {
        name: 'Long-lived',
        role: 'auditor',
        expiresInDays: 365,
        reauth: { password: PASSWORD },
      });
      expect(await count()).toBe(1);
    });

    it('refuses permissions the caller does not hold (400 validation.permissionNotHeld)', async () => {
      const helpdesk = await f.signIn('helpdesk@acme.test');
      for (const body of [
        { name: 'Too much', permissions: ['users:view', 'users:delete'] },
        { name: 'Role above', role: 'admin' },
      ]) {
        const res = await createToken(f, helpdesk, body);
        expect(res.statusCode).toBe(400);
        expect(detailPaths(res.json())).toEqual(['body.permissions:validation.permissionNotHeld']);
      }
      // What helpdesk holds is fine.
      const ok = await newToken(f, helpdesk, { name: 'Desk', permissions: ['users:view', 'users:create'] });
      expect(ok.permissions).toEqual(['users:view', 'users:create']);
    });

    it('creates a token (201), answers the secret once, stores only its hash, and lists it newest first', async () => {
      const admin = await f.signIn('billing@acme.test');
      const first = await newToken(f, admin, {
        name: 'Older',
        role: 'billing_admin',
        expiresInDays: null,
        reauth: { password: PASSWORD },
      });
      const res = await createToken(f, admin, {
        name: ' Deploy bot ',
        permissions: ['billing:view', 'tenant:view', 'billing:update', 'billing:view'],
        expiresInDays: 30,
      });
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created.secret).toMatch(/^pal_[A-Za-z0-9]{40}$/);
      expect(created).toMatchObject({
        name: 'Deploy bot',
        prefix: created.secret.slice(0, 8),
        permissions: ['tenant:view', 'billing:view', 'billing:update'],
        isReadOnly: false,
        lastUsedAt: null,
        revokedAt: null,
      });
      const days = (Date.parse(created.expiresAt) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);

      const [row] = await f.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
      expect(row.tokenHash).toBe(hashToken(created.secret));
      expect(JSON.stringify(row)).not.toContain(created.secret);

      const list = await f.app.inject({ url: '/api/me/tokens', headers: session(admin) });
      expect(list.statusCode).toBe(200);
      const body = list.json();
      expect(body.total).toBe(2);
      expect(body.items.map((t: { id: string }) => t.id)).toEqual([created.id, first.id]);
      expect(body.items[1].expiresAt).toBeNull();
      expect(list.body).not.toContain(created.secret);
      expect(list.body).not.toContain(row.tokenHash);
      expect(body.items[0]).not.toHaveProperty('secret');
    });

    it('default expiry is 30 days (past that the password is asked again); read-only keeps only the view permissions', async () => {
      const admin = await f.signIn('admin@acme.test');
      const token = await newToken(f, admin, { name: 'Reader', role: 'admin', isReadOnly: true });
      expect(token.permissions.length).toBeGreaterThan(0);
      expect(token.permissions.every((p) => p.endsWith(':view'))).toBe(true);
      const days =
        (Date.parse((token as unknown as { expiresAt: string }).expiresAt) - Date.now()) / 86_400_000;
      expect(Math.round(days)).toBe(30);
    });

    it('revokes (and records create and revoke in the event log, never the secret)', async () => {
      const admin = await f.signIn('admin@acme.test');
      const { id, secret } = await newToken(f, admin, { name: 'Short-lived', role: 'auditor' });
      const res = await f.app.inject({
        method: 'DELETE',
        url: `/api/me/tokens/${id}`,
        headers: session(admin),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().revokedAt).not.toBeNull();
      // Again: nothing changes, nothing new is logged.
      expect(
        (await f.app.inject({ method: 'DELETE', url: `/api/me/tokens/${id}`, headers: session(admin) }))
          .statusCode,
      ).toBe(200);

      const events = await f.database.db
        .select()
        .from(adminEvents)
        .where(and(eq(adminEvents.objectType, 'api_token'), eq(adminEvents.objectId, id)))
        .orderBy(adminEvents.at);
      expect(events.map((e) => e.action)).toEqual(['api_token.create', 'api_token.revoke']);
      expect(events[0]).toMatchObject({
        tenantId: f.acme.id,
        actorName: 'admin@acme.test',
        objectName: 'Short-lived',
      });
      expect(JSON.stringify(events)).not.toContain(secret);
      expect(JSON.stringify(events)).not.toContain(hashToken(secret));
    });
  });

  describe('Authorization: Bearer', () => {
    it('lets a read-only token GET users but answers 403 to a write', async () => {
      const admin = await f.signIn('admin@acme.test');
      const { secret } = await newToken(f, admin, { name: 'Read only', role: 'admin', isReadOnly: true });
      expect(
        (await f.app.inject({ url: '/api/subscriber/user/acme', headers: bearer(secret) })).statusCode,
      ).toBe(200);
      const write = await f.app.inject({
        method: 'POST',
        url: '/api/subscriber/user/acme',
        headers: bearer(secret),
        payload: { username: 'ro@acme.test', firstname: 'R', lastname: 'O' },
      });
      expect(write.statusCode).toBe(403);
      expect(write.json().code).toBe('forbidden');
    });

    it("is held to its own scope, and acts in its owner's tenant only", async () => {
      const admin = await f.signIn('admin@acme.test');
      const { secret } = await newToken(f, admin, { name: 'Groups only', permissions: ['groups:view'] });
      expect(
        (await f.app.inject({ url: '/api/subscriber/user/acme', headers: bearer(secret) })).statusCode,
      ).toBe(403);
      expect(
        (await f.app.inject({ url: '/api/subscriber/user/globex', headers: bearer(secret) })).statusCode,
      ).toBe(404);
    });

    it('answers 401 (errcode 1) to an unknown, malformed, revoked or expired token', async () => {
      const admin = await f.signIn('admin@acme.test');
      const revoked = await newToken(f, admin, { name: 'Revoked', role: 'auditor' });
      await f.app.inject({ method: 'DELETE', url: `/api/me/tokens/${revoked.id}`, headers: session(admin) });
      const expired = await newToken(f, admin, { name: 'Expired', role: 'auditor', expiresInDays: 1 });
      await f.database.db
        .update(apiTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(apiTokens.id, expired.id));
      for (const secret of [
        revoked.secret,
        expired.secret,
        `pal_${'A'.repeat(40)}`,
        'pal_short',
        'x'.repeat(44),
      ]) {
        const res = await f.app.inject({ url: '/api/subscriber/user/acme', headers: bearer(secret) });
        expect(res.statusCode, secret).toBe(401);
        expect(res.json()).toMatchObject({ errcode: 1, code: 'unauthenticated' });
      }
    });

    it('prefers X-Auth-Token when both are sent', async () => {
      const admin = await f.signIn('admin@acme.test');
      const { secret } = await newToken(f, admin, { name: 'Both', role: 'auditor' });
      const res = await f.app.inject({
        url: '/api/me/tokens',
        headers: { ...session(admin), ...bearer(secret) },
      });
      expect(res.statusCode).toBe(200);
    });

    it('records when and from where a token was last used, at most once a minute', async () => {
      const admin = await f.signIn('admin@acme.test');
      const { id, secret } = await newToken(f, admin, { name: 'Used', role: 'auditor' });
      await f.app.inject({
        url: '/api/subscriber/user/acme',
        headers: bearer(secret),
        // The client's own address (no TRUST_PROXY: X-Forwarded-For is not believed).
        remoteAddress: '203.0.113.7',
      });
      const [first] = await f.database.db.select().from(apiTokens).where(eq(apiTokens.id, id));
      expect(first.lastUsedAt).not.toBeNull();
      expect(first.lastUsedIp).toBe('203.0.113.7');
      await f.app.inject({
        url: '/api/subscriber/user/acme',
        headers: bearer(secret),
        remoteAddress: '203.0.113.8',
      });
      const [second] = await f.database.db.select().from(apiTokens).where(eq(apiTokens.id, id));
      expect(second.lastUsedAt?.getTime()).toBe(first.lastUsedAt?.getTime());
      expect(second.lastUsedIp).toBe('203.0.113.7');
      // A minute later it is recorded again.
      await f.database.db
        .update(apiTokens)
        .set({ lastUsedAt: new Date(Date.now() - 120_000) })
        .where(eq(apiTokens.id, id));
      await f.app.inject({
        url: '/api/subscriber/user/acme',
        headers: bearer(secret),
        remoteAddress: '203.0.113.8',
      });
      const [third] = await f.database.db.select().from(apiTokens).where(eq(apiTokens.id, id));
      expect(third.lastUsedIp).toBe('203.0.113.8');
      expect(third.lastUsedAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
      const list = await f.app.inject({ url: '/api/me/tokens', headers: session(admin) });
      const shown = list.json().items.find((t: { id: string }) => t.id === id);
      expect(shown).toMatchObject({ lastUsedIp: '203.0.113.8', lastUsedAt: third.lastUsedAt!.toISOString() });
    });

    it('records the token as the actor of the writes it makes', async () => {
      const admin = await f.signIn('admin@acme.test');
      const { secret } = await newToken(f, admin, {
        name: 'Deploy bot',
        permissions: ['users:view', 'users:create'],
      });
      const res = await f.app.inject({
        method: 'POST',
        url: '/api/subscriber/user/acme',
        headers: bearer(secret),
        payload: { username: 'bot-made@acme.test', firstname: 'Bot', lastname: 'Made' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const [event] = await f.database.db
        .select()
        .from(adminEvents)
        .where(and(eq(adminEvents.action, 'user.create'), eq(adminEvents.objectName, 'bot-made@acme.test')))
        .orderBy(desc(adminEvents.at))
        .limit(1);
      expect(event).toMatchObject({ actorName: 'admin@acme.test (token: Deploy bot)', tenantId: f.acme.id });
    });

    it("never grants more than the owner's role holds today", async () => {
      const admin = await f.signIn('helpdesk@acme.test');
      const { secret } = await newToken(f, admin, {
        name: 'Desk bot',
        permissions: ['users:view', 'users:create'],
      });
      const { users } = await import('../../db/schema');
      await f.database.db
        .update(users)
        .set({ role: 'billing_admin' })
        .where(eq(users.username, 'helpdesk@acme.test'));
      try {
        const res = await f.app.inject({ url: '/api/subscriber/user/acme', headers: bearer(secret) });
        expect(res.statusCode).toBe(403);
      } finally {
        await f.database.db
          .update(users)
          .set({ role: 'helpdesk' })
          .where(eq(users.username, 'helpdesk@acme.test'));
      }
    });
  });
  it('follows a custom role: no more than it holds, at creation and at use', async () => {
    const { customRoles, users } = await import('../../db/schema');
    const [role] = await f.database.db
      .insert(customRoles)
      .values({ tenantId: f.acme.id, name: 'Token readers', permissions: ['users:view', 'events:view'] })
      .returning();
    const setRole = (values: { role: string; customRoleId: string | null }) =>
      f.database.db.update(users).set(values).where(eq(users.username, 'auditor@acme.test'));
    await setRole({ role: 'custom', customRoleId: role.id });
    try {
      const auditor = await f.signIn('auditor@acme.test');
      const refused = await createToken(f, auditor, { name: 'Too much', permissions: ['groups:view'] });
      expect(detailPaths(refused.json())).toEqual(['body.permissions:validation.permissionNotHeld']);
      const { secret } = await newToken(f, auditor, { name: 'Reader', permissions: ['users:view'] });
      const call = () => f.app.inject({ url: '/api/subscriber/user/acme', headers: bearer(secret) });
      expect((await call()).statusCode).toBe(200);
      await f.database.db
        .update(customRoles)
        .set({ permissions: ['events:view'] })
        .where(eq(customRoles.id, role.id));
      expect((await call()).statusCode).toBe(403);
    } finally {
      await setRole({ role: 'auditor', customRoleId: null });
    }
  });
});

describe('API tokens and the rate limit', () => {
  const f = useFixture({ rateLimit: { max: 3, windowMs: 60_000 } });

  it('counts each token on its own, apart from the sessions of its owner', async () => {
    const admin = await f.signIn('admin@acme.test');
    const one = await newToken(f, admin, { name: 'One', role: 'auditor' });
    const two = await newToken(f, admin, { name: 'Two', role: 'auditor' });
    const call = (headers: Record<string, string>) =>
      f.app.inject({ url: '/api/subscriber/user/acme', headers });
    for (let i = 0; i < 3; i++) expect((await call(bearer(one.secret))).statusCode).toBe(200);
    const limited = await call(bearer(one.secret));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ errcode: 6, code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call(bearer(two.secret))).statusCode).toBe(200);
    expect((await call(session(admin))).statusCode).toBe(200);
  });
});
