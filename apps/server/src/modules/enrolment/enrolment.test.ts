import type { DeploymentKey } from '@palisade/contracts';
import { generateKeyPair } from '@palisade/gateway-config';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents, mailOutbox, userGroups, users } from '../../db/schema';
import { hashToken } from '../../lib/credentials';
import { devices, enrolmentTokens } from './enrolment.tables';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let owner: string;
let auditor: string;
let helpdesk: string;
let billing: string;
let globexOwner: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  helpdesk = await f.signIn('helpdesk@acme.test');
  billing = await f.signIn('billing@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
});

type Method = 'GET' | 'POST' | 'DELETE';

function call(method: Method, url: string, token?: string, payload?: unknown) {
  return f.app.inject({ method, url, headers: token ? auth(token) : {}, payload: payload as object });
}

async function createUser(tenant: string, name: string, token = owner): Promise<string> {
  const res = await call('POST', `/api/subscriber/user/${tenant}`, token, {
    username: `${name}@${tenant}.test`,
    firstname: name,
    lastname: 'Device',
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

async function createLink(
  userId: string,
  body: Record<string, unknown> = {},
  tenant = 'acme',
  token = owner,
) {
  const res = await call('POST', `/api/enrolment/${tenant}/users/${userId}/link`, token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; token: string; url: string; expiresAt: string };
}

async function createKey(body: Record<string, unknown>, tenant = 'acme', token = owner) {
  const res = await call('POST', `/api/enrolment/${tenant}/keys`, token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { key: DeploymentKey; token: string };
}

function enrol(token: string, device = { name: 'Laptop', os: 'windows' }, username?: string) {
  return call('POST', '/api/enrol', undefined, { token, device, ...(username ? { username } : {}) });
}

/** The row of the users-and-devices list for one user (found by username search). */
async function rowOf(username: string, query = '') {
  const res = await call('GET', `/api/enrolment/acme/users?q=${encodeURIComponent(username)}${query}`, owner);
  expect(res.statusCode).toBe(200);
  return res.json().items.find((row: { username: string }) => row.username === username);
}

async function eventsOf(action: string, tenantId = f.acme.id) {
  return f.database.db
    .select()
    .from(adminEvents)
    .where(and(eq(adminEvents.tenantId, tenantId), eq(adminEvents.action, action)));
}

const paths = (res: { json(): { details?: { path: string }[] } }) =>
  (res.json().details ?? []).map((d) => d.path);

describe('GET /enrolment/{tenant}/users', () => {
  it('covers 401, 403, other tenant 404 and 400', async () => {
    expect((await call('GET', '/api/enrolment/acme/users')).statusCode).toBe(401);
    expect((await call('GET', '/api/enrolment/acme/users', billing)).statusCode).toBe(403);
    expect((await call('GET', '/api/enrolment/globex/users', owner)).statusCode).toBe(404);
    const bad = await call('GET', '/api/enrolment/acme/users?filter=some&method=rmm&limit=0', owner);
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(expect.arrayContaining(['query.filter', 'query.method', 'query.limit']));
  });

  it('lists end users only with their state, filters, searches and pages', async () => {
    const enrolled = await createUser('acme', 'lst-enrolled');
    const pending = await createUser('acme', 'lst-pending');
    const expired = await createUser('acme', 'lst-expired');
    await createUser('acme', 'lst-none');
    const browser = await createUser('acme', 'lst-browser');
    expect((await enrol((await createLink(enrolled)).token)).statusCode).toBe(201);
    await createLink(pending);
    const old = await createLink(expired, { ttlHours: 24 });
    await f.database.db
      .update(enrolmentTokens)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(enrolmentTokens.id, old.id));
    const agentless = await createLink(browser, { kind: 'agentless' });
    expect((await enrol(agentless.token, { name: 'Chrome', os: 'chrome' })).statusCode).toBe(201);

    const all = (await call('GET', '/api/enrolment/acme/users?q=lst-&limit=200', helpdesk)).json();
    const state = (items: { username: string; state: string }[]) =>
      Object.fromEntries(items.map((row) => [row.username.split('@')[0], row.state]));
    expect(state(all.items)).toEqual({
      'lst-browser': 'enrolled',
      'lst-enrolled': 'enrolled',
      'lst-expired': 'expired',
      'lst-none': 'not-invited',
      'lst-pending': 'pending',
    });
    expect(all.total).toBe(5);
    expect(all.items.map((row: { username: string }) => row.username)).toEqual(
      [...all.items.map((row: { username: string }) => row.username)].sort(),
    );
    // Administrators are not end users.
    const admins = (await call('GET', '/api/enrolment/acme/users?q=admin%40acme', owner)).json();
    expect(admins.total).toBe(0);

    const filtered = async (query: string) =>
      state((await call('GET', `/api/enrolment/acme/users?q=lst-${query}`, owner)).json().items);
    expect(Object.keys(await filtered('&filter=with-devices'))).toEqual(['lst-browser', 'lst-enrolled']);
    expect(Object.keys(await filtered('&filter=without-devices'))).toEqual([
      'lst-expired',
      'lst-none',
      'lst-pending',
    ]);
    expect(await filtered('&filter=pending')).toEqual({ 'lst-pending': 'pending' });
    // The agentless view counts only browser devices and agentless links.
    expect(await filtered('&method=agentless')).toEqual({
      'lst-browser': 'enrolled',
      'lst-enrolled': 'not-invited',
      'lst-expired': 'not-invited',
      'lst-none': 'not-invited',
      'lst-pending': 'not-invited',
    });
    expect(Object.keys(await filtered('&method=agentless&filter=with-devices'))).toEqual(['lst-browser']);
    const browserRow = await rowOf('lst-browser@acme.test', '&method=agentless');
    expect(browserRow.link).toMatchObject({ id: agentless.id, kind: 'agentless' });
    expect(browserRow.devices).toHaveLength(1);
    expect((await rowOf('lst-enrolled@acme.test', '&method=agentless')).devices).toEqual([]);

    const page = (
      await call('GET', '/api/enrolment/acme/users?q=lst-&limit=2&offset=2&order=desc', owner)
    ).json();
    expect(page.total).toBe(5);
    expect(page.items.map((row: { username: string }) => row.username)).toEqual([
      'lst-expired@acme.test',
      'lst-enrolled@acme.test',
    ]);
  });
});

describe('POST /enrolment/{tenant}/users/{id}/link', () => {
  it('covers 401, 403, 404 (other tenant, unknown, administrator) and 400', async () => {
    const user = await createUser('acme', 'link-guard');
    const url = `/api/enrolment/acme/users/${user}/link`;
    expect((await call('POST', url, undefined, {})).statusCode).toBe(401);
    expect((await call('POST', url, helpdesk, {})).statusCode).toBe(403);
    expect((await call('POST', url, auditor, {})).statusCode).toBe(403);
    expect((await call('POST', `/api/enrolment/globex/users/${user}/link`, owner, {})).statusCode).toBe(404);
    const foreign = await createUser('globex', 'link-foreign', globexOwner);
    expect((await call('POST', `/api/enrolment/acme/users/${foreign}/link`, owner, {})).statusCode).toBe(404);
    expect((await call('POST', `/api/enrolment/globex/users/${foreign}/link`, owner, {})).statusCode).toBe(
      404,
    );
    expect((await call('POST', `/api/enrolment/acme/users/${UNKNOWN_ID}/link`, owner, {})).statusCode).toBe(
      404,
    );
    const [admin] = await f.database.db.select().from(users).where(eq(users.username, 'auditor@acme.test'));
    expect((await call('POST', `/api/enrolment/acme/users/${admin.id}/link`, owner, {})).statusCode).toBe(
      404,
    );
    const bad = await call('POST', url, owner, { kind: 'rmm', ttlHours: 5, sendEmail: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(expect.arrayContaining(['body.kind', 'body.ttlHours', 'body.sendEmail']));
    expect((await call('POST', '/api/enrolment/acme/users/not-a-uuid/link', owner, {})).statusCode).toBe(400);
    const links = await f.database.db.select().from(enrolmentTokens).where(eq(enrolmentTokens.userId, user));
    expect(links).toEqual([]);
  });

  it('answers the token once, replaces the pending link of the same kind and mails it on request', async () => {
    const user = await createUser('acme', 'link-happy');
    const before = Date.now();
    const first = await createLink(user, { ttlHours: 24 });
    expect(first.token).toMatch(/^pal_enr_[A-Za-z0-9_-]{43}$/);
    expect(first.url).toBe(`${f.config.publicUrl}/verify/wg/${first.token}`);
    const expiresIn = new Date(first.expiresAt).getTime() - before;
    expect(expiresIn).toBeGreaterThan(23.9 * 3_600_000);
    expect(expiresIn).toBeLessThan(24.1 * 3_600_000);
    const browser = await createLink(user, { kind: 'agentless' });
    const second = await createLink(user, { sendEmail: true, ttlHours: 720 });
    expect((await call('GET', `/api/enrol/${first.token}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/enrol/${browser.token}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/enrol/${second.token}`)).statusCode).toBe(200);
    const row = await rowOf('link-happy@acme.test');
    expect(row).toMatchObject({ state: 'pending', link: { kind: 'link', id: second.id, usedAt: null } });
    expect(row.link.prefix).toBe(second.token.slice(0, 16));
    const [mail] = await f.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'link-happy@acme.test'));
    expect(mail.bodyText).toContain(second.url);
    const [stored] = await f.database.db
      .select()
      .from(enrolmentTokens)
      .where(eq(enrolmentTokens.id, second.id));
    expect(stored.tokenHash).toBe(hashToken(second.token));
    const events = (await eventsOf('enrolment.link.create')).filter(
      (e) => e.objectName === 'link-happy@acme.test',
    );
    expect(events).toHaveLength(3);
    const replacing = events.find((e) => (e.after as { id: string }).id === second.id)!;
    expect(replacing.before).toMatchObject({ pendingLink: { id: first.id } });
    expect(replacing.after).toMatchObject({ isEmailed: true, kind: 'link' });
  });
});

describe('DELETE /enrolment/{tenant}/users/{id}/link', () => {
  it('covers 401, 403, 404, 400 and revokes pending links', async () => {
    const user = await createUser('acme', 'revoke-link');
    const url = `/api/enrolment/acme/users/${user}/link`;
    expect((await call('DELETE', url)).statusCode).toBe(401);
    expect((await call('DELETE', url, helpdesk)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/enrolment/globex/users/${user}/link`, owner)).statusCode).toBe(404);
    const foreign = await createUser('globex', 'revoke-foreign', globexOwner);
    expect((await call('DELETE', `/api/enrolment/acme/users/${foreign}/link`, owner)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/enrolment/acme/users/nope/link', owner)).statusCode).toBe(400);
    const link = await createLink(user);
    const browser = await createLink(user, { kind: 'agentless' });
    const foreignLink = await createLink(foreign, {}, 'globex', globexOwner);
    const res = await call('DELETE', url, owner);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    expect((await call('GET', `/api/enrol/${link.token}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/enrol/${browser.token}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/enrol/${foreignLink.token}`)).statusCode).toBe(200);
    expect((await call('DELETE', url, owner)).json()).toEqual({ revoked: 0 });
    expect(await rowOf('revoke-link@acme.test')).toMatchObject({ state: 'not-invited', link: null });
    const events = (await eventsOf('enrolment.link.revoke')).filter(
      (e) => e.objectName === 'revoke-link@acme.test',
    );
    expect(events).toHaveLength(2);
  });
});

describe('DELETE /enrolment/{tenant}/devices', () => {
  it('covers 401, 403, 400, skips other tenants and deletes with an event', async () => {
    const user = await createUser('acme', 'dev-delete');
    const enrolled = (await enrol((await createLink(user)).token, { name: 'Old phone', os: 'ios' })).json();
    const foreignUser = await createUser('globex', 'dev-foreign', globexOwner);
    const foreign = (
      await enrol((await createLink(foreignUser, {}, 'globex', globexOwner)).token, { name: 'G', os: 'mac' })
    ).json();
    const url = '/api/enrolment/acme/devices';
    expect((await call('DELETE', url, undefined, { ids: [enrolled.deviceId] })).statusCode).toBe(401);
    expect((await call('DELETE', url, helpdesk, { ids: [enrolled.deviceId] })).statusCode).toBe(403);
    expect(
      (await call('DELETE', '/api/enrolment/globex/devices', owner, { ids: [foreign.deviceId] })).statusCode,
    ).toBe(404);
    const bad = await call('DELETE', url, owner, { ids: [] });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['body.ids']);
    expect(paths(await call('DELETE', url, owner, { ids: ['x'] }))).toEqual(['body.ids.0']);
    expect((await call('DELETE', url, owner, { ids: [foreign.deviceId, UNKNOWN_ID] })).json()).toEqual({
      deleted: 0,
    });
    const res = await call('DELETE', url, owner, { ids: [enrolled.deviceId, enrolled.deviceId] });
    expect(res.json()).toEqual({ deleted: 1 });
    expect((await rowOf('dev-delete@acme.test')).devices).toEqual([]);
    expect(await f.database.db.select().from(devices).where(eq(devices.id, foreign.deviceId))).toHaveLength(
      1,
    );
    const [event] = (await eventsOf('device.delete')).filter((e) => e.objectId === enrolled.deviceId);
    expect(event.before).toMatchObject({ name: 'Old phone', os: 'ios', username: 'dev-delete@acme.test' });
  });
});

describe('deployment keys', () => {
  it('GET covers 401, 403, other tenant 404 and lists keys with their groups', async () => {
    expect((await call('GET', '/api/enrolment/acme/keys')).statusCode).toBe(401);
    expect((await call('GET', '/api/enrolment/acme/keys', billing)).statusCode).toBe(403);
    expect((await call('GET', '/api/enrolment/globex/keys', owner)).statusCode).toBe(404);
    const created = await createKey({ name: 'Listed key', autoGroupIds: [f.acme.groupIds[1]] });
    await createKey({ name: 'Globex key' }, 'globex', globexOwner);
    const list = await call('GET', '/api/enrolment/acme/keys', auditor);
    expect(list.statusCode).toBe(200);
    const key = list.json().find((k: { id: string }) => k.id === created.key.id);
    expect(key).toMatchObject({
      name: 'Listed key',
      autoGroups: [{ id: f.acme.groupIds[1], name: 'Sales' }],
      maxUses: null,
      uses: 0,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(list.json().map((k: { name: string }) => k.name)).not.toContain('Globex key');
  });

  it('POST covers 401, 403, other tenant 404, 400 (fields, unknown or foreign group) and creates', async () => {
    const url = '/api/enrolment/acme/keys';
    expect((await call('POST', url, undefined, { name: 'K' })).statusCode).toBe(401);
    expect((await call('POST', url, helpdesk, { name: 'K' })).statusCode).toBe(403);
    expect((await call('POST', '/api/enrolment/globex/keys', owner, { name: 'K' })).statusCode).toBe(404);
    const bad = await call('POST', url, owner, {
      name: '  ',
      maxUses: 0,
      expiresInDays: 0,
      autoGroupIds: ['x'],
    });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(
      expect.arrayContaining(['body.name', 'body.maxUses', 'body.expiresInDays', 'body.autoGroupIds.0']),
    );
    for (const groupId of [UNKNOWN_ID, f.globex.groupIds[0]]) {
      const res = await call('POST', url, owner, { name: 'Bad groups', autoGroupIds: [groupId] });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ path: 'body.autoGroupIds', message: 'validation.unknownGroup' }]);
    }
    const before = Date.now();
    const created = await createKey({
      name: 'Intune',
      autoGroupIds: [f.acme.groupIds[0], f.acme.groupIds[0]],
      maxUses: 10,
    });
    expect(created.token).toMatch(/^pal_enr_/);
    expect(created.key).toMatchObject({
      name: 'Intune',
      prefix: created.token.slice(0, 16),
      autoGroups: [{ id: f.acme.groupIds[0], name: 'Engineering' }],
      maxUses: 10,
    });
    const days = (new Date(created.key.expiresAt!).getTime() - before) / 86_400_000;
    expect(Math.round(days)).toBe(90);
    const never = await createKey({ name: 'Forever', expiresInDays: null });
    expect(never.key.expiresAt).toBeNull();
    const keys = await f.database.db
      .select()
      .from(enrolmentTokens)
      .where(eq(enrolmentTokens.name, 'Bad groups'));
    expect(keys).toEqual([]);
    const [event] = (await eventsOf('enrolment.key.create')).filter((e) => e.objectId === created.key.id);
    expect(event.after).toMatchObject({ name: 'Intune', maxUses: 10 });
  });

  it('DELETE covers 401, 403, 404 (other tenant, unknown, a user link), 400 and revokes idempotently', async () => {
    const created = await createKey({ name: 'Revoke me' });
    const url = `/api/enrolment/acme/keys/${created.key.id}`;
    expect((await call('DELETE', url)).statusCode).toBe(401);
    expect((await call('DELETE', url, helpdesk)).statusCode).toBe(403);
    expect(
      (await call('DELETE', `/api/enrolment/globex/keys/${created.key.id}`, globexOwner)).statusCode,
    ).toBe(404);
    const foreign = await createKey({ name: 'Foreign' }, 'globex', globexOwner);
    expect((await call('DELETE', `/api/enrolment/acme/keys/${foreign.key.id}`, owner)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/enrolment/acme/keys/${UNKNOWN_ID}`, owner)).statusCode).toBe(404);
    const link = await createLink(await createUser('acme', 'key-not-link'));
    expect((await call('DELETE', `/api/enrolment/acme/keys/${link.id}`, owner)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/enrolment/acme/keys/nope', owner)).statusCode).toBe(400);
    const first = await call('DELETE', url, owner);
    expect(first.statusCode).toBe(200);
    expect(first.json().revokedAt).not.toBeNull();
    const second = await call('DELETE', url, owner);
    expect(second.json()).toEqual(first.json());
    expect((await call('GET', `/api/enrol/${created.token}`)).statusCode).toBe(404);
    expect((await enrol(created.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/enrol/${foreign.token}`)).statusCode).toBe(200);
    expect(
      (await eventsOf('enrolment.key.revoke')).filter((e) => e.objectId === created.key.id),
    ).toHaveLength(1);
  });
});

describe('public enrolment', () => {
  it('validates input and answers 404 for unknown tokens', async () => {
    expect((await call('GET', '/api/enrol/short')).statusCode).toBe(400);
    const unknown = await call('GET', '/api/enrol/pal_enr_unknown-token-value');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('not_found');
    const bad = await call('POST', '/api/enrol', undefined, { token: 'x', device: { name: '', os: 'beos' } });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(expect.arrayContaining(['body.token', 'body.device.name', 'body.device.os']));
    const res = await enrol('pal_enr_not-a-real-token-at-all');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/invalid or has expired/);
    expect((await enrol('not-even-the-right-prefix')).statusCode).toBe(404);
  });

  it('enrols with a link once: info, device under the user, enrolled state, then 404', async () => {
    const alice = await createUser('acme', 'alice');
    const link = await createLink(alice);
    const info = await call('GET', `/api/enrol/${link.token}`);
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({
      tenant: 'acme',
      tenantDisplayName: 'ACME',
      kind: 'link',
      username: 'alice@acme.test',
      expiresAt: link.expiresAt,
    });
    const res = await enrol(link.token, { name: '  Alice laptop ', os: 'mac' }, 'someone-else@acme.test');
    expect(res.statusCode).toBe(201);
    const enrolled = res.json();
    expect(enrolled).toMatchObject({ tenant: 'acme', userId: alice });
    expect(enrolled.deviceToken).toMatch(/^pal_dev_[A-Za-z0-9_-]{43}$/);

    const row = await rowOf('alice@acme.test');
    expect(row.state).toBe('enrolled');
    expect(row.link).toMatchObject({ id: link.id, kind: 'link' });
    expect(row.link.usedAt).not.toBeNull();
    expect(row.devices).toEqual([
      {
        id: enrolled.deviceId,
        name: 'Alice laptop',
        os: 'mac',
        userId: alice,
        username: 'alice@acme.test',
        connstatus: 'never',
        enrolledVia: 'link',
        enrolledAt: expect.any(String),
        lastSeenAt: null,
      },
    ]);
    // The user's own connection status is left alone.
    expect(row.connstatus).toBe('never');
    const [stored] = await f.database.db.select().from(devices).where(eq(devices.id, enrolled.deviceId));
    expect(stored.tokenHash).toBe(hashToken(enrolled.deviceToken));
    expect(stored.enrolmentId).toBe(link.id);

    const again = await enrol(link.token);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/invalid or has expired/),
    });
    expect((await call('GET', `/api/enrol/${link.token}`)).statusCode).toBe(404);

    const [event] = (await eventsOf('device.enrol')).filter((e) => e.objectId === enrolled.deviceId);
    expect(event).toMatchObject({ actorName: 'enrolment', actorId: null, objectType: 'device' });
    expect(event.after).toMatchObject({ userId: alice, enrolment: { id: link.id, kind: 'link' } });
  });

  it('refuses an expired link (404) and lists it as expired', async () => {
    const bob = await createUser('acme', 'bob');
    const link = await createLink(bob);
    await f.database.db.execute(
      sql`update enrolment_tokens set expires_at = now() - interval '1 minute' where id = ${link.id}`,
    );
    expect((await call('GET', `/api/enrol/${link.token}`)).statusCode).toBe(404);
    expect((await enrol(link.token)).statusCode).toBe(404);
    expect(await rowOf('bob@acme.test')).toMatchObject({ state: 'expired', devices: [] });
  });

  it('counts key uses and stops at maxUses', async () => {
    const created = await createKey({ name: 'One use', maxUses: 1 });
    const info = (await call('GET', `/api/enrol/${created.token}`)).json();
    expect(info).toMatchObject({ tenant: 'acme', kind: 'rmm', username: null });
    const first = await enrol(created.token, { name: 'Kiosk', os: 'linux' }, 'nobody@acme.test');
    expect(first.statusCode).toBe(201);
    expect(first.json().userId).toBeNull();
    expect((await enrol(created.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/enrol/${created.token}`)).statusCode).toBe(404);
    const key = (await call('GET', '/api/enrolment/acme/keys', owner))
      .json()
      .find((k: { id: string }) => k.id === created.key.id);
    expect(key.uses).toBe(1);
    expect(key.lastUsedAt).not.toBeNull();
  });

  it('enrols one device per use when the same token arrives 15 times at once', async () => {
    const racer = await createUser('acme', 'racer');
    const link = await createLink(racer);
    const byLink = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        call('POST', '/api/enrol', undefined, {
          token: link.token,
          device: { name: `Raced laptop ${i}`, os: 'linux' },
          publicKey: generateKeyPair().publicKey,
        }),
      ),
    );
    expect(byLink.map((a) => a.statusCode).sort()).toEqual([201, ...Array(14).fill(404)]);
    expect((await rowOf('racer@acme.test')).devices).toHaveLength(1);

    // A key of three uses: three devices, each with its own tunnel address, and no more.
    const key = await createKey({ name: 'Three uses', maxUses: 3 });
    const byKey = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        call('POST', '/api/enrol', undefined, {
          token: key.token,
          device: { name: `Raced kiosk ${i}`, os: 'linux' },
          publicKey: generateKeyPair().publicKey,
        }),
      ),
    );
    expect(byKey.map((a) => a.statusCode).sort()).toEqual([201, 201, 201, ...Array(12).fill(404)]);
    const addresses = byKey.filter((a) => a.statusCode === 201).map((a) => a.json().wireguard.address);
    expect(new Set(addresses).size).toBe(3);
    const stored = await f.database.db.select().from(devices).where(eq(devices.enrolmentId, key.key.id));
    expect(stored).toHaveLength(3);
  });

  it('assigns the user by username with a deployment key and adds the auto-groups', async () => {
    const carol = await createUser('acme', 'carol');
    const [engineering, sales] = f.acme.groupIds;
    const created = await createKey({ name: 'RMM', autoGroupIds: [engineering, sales] });
    // Deleted since the key was made: skipped, not an error.
    const doomed = (await call('POST', '/api/groups/acme', owner, { name: 'Doomed' })).json();
    const withDoomed = await createKey({ name: 'RMM 2', autoGroupIds: [doomed.id] });
    await call('DELETE', '/api/groups/acme', owner, { ids: [doomed.id] });

    const res = await enrol(created.token, { name: 'Carol PC', os: 'windows' }, 'CAROL@acme.test');
    expect(res.statusCode).toBe(201);
    expect(res.json().userId).toBe(carol);
    const memberships = await f.database.db.select().from(userGroups).where(eq(userGroups.userId, carol));
    expect(memberships.map((m) => m.groupId).sort()).toEqual([engineering, sales].sort());
    const row = await rowOf('carol@acme.test');
    expect(row.state).toBe('enrolled');
    expect(row.devices).toMatchObject([{ name: 'Carol PC', enrolledVia: 'rmm', userId: carol }]);
    // A second device with the same key: still one membership per group.
    expect(
      (await enrol(created.token, { name: 'Carol tablet', os: 'android' }, 'carol@acme.test')).statusCode,
    ).toBe(201);
    expect(await f.database.db.select().from(userGroups).where(eq(userGroups.userId, carol))).toHaveLength(2);
    expect((await rowOf('carol@acme.test')).devices).toHaveLength(2);
    const second = await enrol(withDoomed.token, { name: 'Carol 3', os: 'linux' }, 'carol@acme.test');
    expect(second.statusCode).toBe(201);
    const [event] = (await eventsOf('device.enrol')).filter((e) => e.objectId === res.json().deviceId);
    expect((event.after as { addedToGroups: string[] }).addedToGroups).toEqual(['Engineering', 'Sales']);
    // An administrator's or another tenant's username is not an end user of the key's tenant.
    const foreignUser = await createUser('globex', 'dave', globexOwner);
    expect(foreignUser).toBeTruthy();
    const other = await enrol(created.token, { name: 'X', os: 'linux' }, 'dave@globex.test');
    expect(other.json().userId).toBeNull();
    const admin = await enrol(created.token, { name: 'Y', os: 'linux' }, 'admin@acme.test');
    expect(admin.json().userId).toBeNull();
  });

  it("keeps a deleted user's devices, unassigned", async () => {
    const erin = await createUser('acme', 'erin');
    const enrolled = (await enrol((await createLink(erin)).token)).json();
    const res = await call('DELETE', '/api/subscriber/user/acme', owner, { ids: [erin] });
    expect(res.statusCode).toBe(200);
    const [device] = await f.database.db.select().from(devices).where(eq(devices.id, enrolled.deviceId));
    expect(device).toMatchObject({ userId: null, tenantId: f.acme.id });
  });

  it('never shows a token or its hash in list answers or the event log', async () => {
    const frank = await createUser('acme', 'frank');
    const link = await createLink(frank, { sendEmail: false });
    const used = await createLink(await createUser('acme', 'grace'));
    const enrolled = (await enrol(used.token)).json();
    const key = await createKey({ name: 'Secret check' });
    await call('DELETE', `/api/enrolment/acme/keys/${key.key.id}`, owner);
    const secrets = [link.token, used.token, key.token, enrolled.deviceToken];
    const listed = await Promise.all(
      [
        '/api/enrolment/acme/users?limit=200',
        '/api/enrolment/acme/keys',
        '/api/events/admin/acme?limit=200',
      ].map((url) => call('GET', url, owner)),
    );
    expect(listed.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    const answers = [
      ...listed.map((res) => res.body),
      JSON.stringify(await f.database.db.select().from(adminEvents)),
    ];
    expect(answers[2]).toContain('device.enrol');
    for (const answer of answers) {
      for (const secret of secrets) {
        expect(answer).not.toContain(secret);
        expect(answer).not.toContain(hashToken(secret));
        // Not even the random part past the shown prefix.
        expect(answer).not.toContain(secret.slice(16));
      }
    }
    expect(answers[0]).toContain(link.token.slice(0, 16));
  });
});
