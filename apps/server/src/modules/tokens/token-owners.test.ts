import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents, users } from '../../db/schema';

const f = useFixture();
const session = (token: string) => ({ 'x-auth-token': token });
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function idOf(username: string) {
  const [row] = await f.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  return row.id;
}

async function tokenFor(username: string, body: Record<string, unknown>) {
  const res = await f.app.inject({
    method: 'POST',
    url: '/api/me/tokens',
    headers: session(await f.signIn(username)),
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

const readUsers = (secret: string) =>
  f.app.inject({ url: '/api/subscriber/user/acme', headers: bearer(secret) });

describe("a token has its owner's rights now", () => {
  it('stops working the moment its owner is suspended, and works again when reinstated', async () => {
    const { secret } = await tokenFor('helpdesk@acme.test', { name: 'Desk bot', role: 'helpdesk' });
    expect((await readUsers(secret)).statusCode).toBe(200);
    const owner = await f.signIn('admin@acme.test');
    const url = `/api/admins/acme/${await idOf('helpdesk@acme.test')}/suspension`;
    await f.app.inject({ method: 'PUT', url, headers: session(owner), payload: { suspended: true } });
    const refused = await readUsers(secret);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ errcode: 1 });
    // Writes too.
    const write = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme',
      headers: bearer(secret),
      payload: { username: 'sneaky@acme.test', firstname: 'S', lastname: 'N' },
    });
    expect(write.statusCode).toBe(401);
    await f.app.inject({ method: 'PUT', url, headers: session(owner), payload: { suspended: false } });
    expect((await readUsers(secret)).statusCode).toBe(200);
  });

  it('stops working when its owner is removed', async () => {
    const { secret } = await tokenFor('billing@acme.test', {
      name: 'Billing bot',
      permissions: ['tenant:view'],
    });
    expect(
      (await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: bearer(secret) })).statusCode,
    ).toBe(200);
    const owner = await f.signIn('admin@acme.test');
    const removed = await f.app.inject({
      method: 'DELETE',
      url: `/api/admins/acme/${await idOf('billing@acme.test')}`,
      headers: session(owner),
    });
    expect(removed.statusCode).toBe(200);
    expect(
      (await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: bearer(secret) })).statusCode,
    ).toBe(401);
  });
});

describe('GET /tokens/{tenant} and DELETE /tokens/{tenant}/{id}', () => {
  const list = (headers: Record<string, string>, query = '') =>
    f.app.inject({ url: `/api/tokens/acme${query}`, headers });

  it('answers 401 without a session, 403 without roles:update, 404 for another tenant, 400 for bad input', async () => {
    const { id } = await tokenFor('auditor@acme.test', { name: 'Audit bot', role: 'auditor' });
    expect((await f.app.inject({ url: '/api/tokens/acme' })).statusCode).toBe(401);
    expect((await f.app.inject({ method: 'DELETE', url: `/api/tokens/acme/${id}` })).statusCode).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect((await list(session(auditor))).statusCode).toBe(403);
    expect(
      (await f.app.inject({ method: 'DELETE', url: `/api/tokens/acme/${id}`, headers: session(auditor) }))
        .statusCode,
    ).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect((await list(session(globex))).statusCode).toBe(404);
    // Globex's own list does not hold acme's token, and revoking it there is not found.
    const own = await f.app.inject({ url: '/api/tokens/globex', headers: session(globex) });
    expect(own.json().items.map((t: { id: string }) => t.id)).not.toContain(id);
    const foreign = await f.app.inject({
      method: 'DELETE',
      url: `/api/tokens/globex/${id}`,
      headers: session(globex),
    });
    expect(foreign.statusCode).toBe(404);
    const owner = await f.signIn('admin@acme.test');
    const bad = await list(session(owner), '?limit=0&userId=nope&active=maybe');
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['query.active', 'query.limit', 'query.userId']);
    const badId = await f.app.inject({
      method: 'DELETE',
      url: '/api/tokens/acme/nope',
      headers: session(owner),
    });
    expect(badId.json().details[0].path).toBe('params.id');
  });

  it("lists every administrator's tokens with their owner, and revokes any of them", async () => {
    const auditorToken = await tokenFor('auditor@acme.test', { name: 'Reports', role: 'auditor' });
    const ownerSession = await f.signIn('admin@acme.test');
    const page = await list(session(ownerSession), `?userId=${await idOf('auditor@acme.test')}&active=true`);
    expect(page.statusCode).toBe(200);
    const row = page.json().items.find((t: { id: string }) => t.id === auditorToken.id);
    expect(row).toMatchObject({ name: 'Reports', owner: { username: 'auditor@acme.test' }, revokedAt: null });
    expect(row).not.toHaveProperty('secret');
    expect(JSON.stringify(page.json())).not.toContain(auditorToken.secret);

    const revoked = await f.app.inject({
      method: 'DELETE',
      url: `/api/tokens/acme/${auditorToken.id}`,
      headers: session(ownerSession),
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id: auditorToken.id, owner: { username: 'auditor@acme.test' } });
    expect(revoked.json().revokedAt).not.toBeNull();
    expect((await readUsers(auditorToken.secret)).statusCode).toBe(401);
    const active = await list(session(ownerSession), '?active=true');
    expect(active.json().items.map((t: { id: string }) => t.id)).not.toContain(auditorToken.id);
    const inactive = await list(session(ownerSession), '?active=false');
    expect(inactive.json().items.map((t: { id: string }) => t.id)).toContain(auditorToken.id);
    const [event] = await f.database.db
      .select()
      .from(adminEvents)
      .where(eq(adminEvents.objectId, auditorToken.id))
      .orderBy(adminEvents.at);
    expect(event).toBeDefined();
    const revokeEvents = await f.database.db
      .select()
      .from(adminEvents)
      .where(eq(adminEvents.action, 'api_token.revoke'));
    expect(revokeEvents.find((e) => e.objectId === auditorToken.id)).toMatchObject({
      actorName: 'admin@acme.test',
      tenantId: f.acme.id,
    });
  });

  it('lets a partner managing the tenant list and revoke its tokens', async () => {
    const { id } = await tokenFor('admin@acme.test', { name: 'Owner bot', role: 'auditor' });
    const partner = await f.signIn('partner@northwind.test');
    const page = await list(session(partner));
    expect(page.json().items.map((t: { id: string }) => t.id)).toContain(id);
    const res = await f.app.inject({
      method: 'DELETE',
      url: `/api/tokens/acme/${id}`,
      headers: session(partner),
    });
    expect(res.statusCode).toBe(200);
  });
});
