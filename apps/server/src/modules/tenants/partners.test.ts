import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addPlatformAdmin, PASSWORD, readOutbox, useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const paths = (res: { json(): { details?: { path: string }[] } }) =>
  (res.json().details ?? []).map((d) => d.path).sort();
const newTenant = {
  name: 'initech',
  displayName: 'Initech',
  owner: { email: 'owner@initech.test', firstname: 'Bill', lastname: 'Lumbergh' },
};

async function actions(tenant: string) {
  const rows = await queryRows<{ action: string; actor_name: string }>(
    f.database.db,
    sql`select e.action, e.actor_name from admin_events e join tenants t on t.id = e.tenant_id
        where t.name = ${tenant} order by e.at`,
  );
  return rows.map((r) => `${r.action} by ${r.actor_name}`);
}
const tenantCount = async () =>
  (await queryRows<{ n: number }>(f.database.db, sql`select count(*)::int as n from tenants`))[0].n;

let partner: string;
let root: string;
beforeAll(async () => {
  await addPlatformAdmin(f.database);
  partner = await f.signIn('partner@northwind.test');
  root = await f.signIn('root@platform.test');
});

describe('the partner console: GET partner/{tenant}/tenants', () => {
  const url = '/api/partner/northwind/tenants';

  it('answers 401 without a session, 403 to a customer role, 404 for a tenant that is not managed', async () => {
    expect((await f.app.inject({ url })).statusCode).toBe(401);
    const owner = await f.signIn('admin@acme.test');
    expect((await f.app.inject({ url: '/api/partner/acme/tenants', headers: auth(owner) })).statusCode).toBe(
      403,
    );
    // Another partner's (here: no partner's) tenant, and a customer of its own, which has no console.
    for (const name of ['globex', 'acme', 'platform']) {
      const res = await f.app.inject({ url: `/api/partner/${name}/tenants`, headers: auth(partner) });
      expect(res.statusCode, name).toBe(404);
    }
  });

  it('answers 400 with the fields for a bad query', async () => {
    const res = await f.app.inject({
      url: `${url}?limit=0&status=paused&sort=users`,
      headers: auth(partner),
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['query.limit', 'query.sort', 'query.status']);
  });

  it("lists a partner's customers with live counts, and every tenant with its partner for the platform", async () => {
    const mine = await f.app.inject({ url, headers: auth(partner) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      total: 1,
      items: [
        {
          name: 'acme',
          kind: 'customer',
          partner: 'northwind',
          status: 'active',
          users: 1,
          devices: 0,
          gateways: 0,
          gatewaysOffline: 0,
        },
      ],
    });
    const all = await f.app.inject({ url: '/api/partner/platform/tenants', headers: auth(root) });
    expect(
      all.json().items.map((t: { name: string; partner: string | null }) => [t.name, t.partner]),
    ).toEqual([
      ['acme', 'northwind'],
      ['globex', null],
      ['northwind', null],
    ]);
    // The platform opens a partner's console too.
    const theirs = await f.app.inject({ url, headers: auth(root) });
    expect(theirs.json().items.map((t: { name: string }) => t.name)).toEqual(['acme']);
    const found = await f.app.inject({
      url: '/api/partner/platform/tenants?q=GLOB&limit=1',
      headers: auth(root),
    });
    expect(found.json()).toMatchObject({ total: 1, items: [{ name: 'globex' }] });
    const suspended = await f.app.inject({ url: `${url}?status=suspended`, headers: auth(partner) });
    expect(suspended.json()).toEqual({ total: 0, items: [] });
  });
});

describe('the partner console: POST partner/{tenant}/tenants', () => {
  const url = '/api/partner/northwind/tenants';

  it('answers 401, 403, 404 and 400 with the fields, creating nothing', async () => {
    const before = await tenantCount();
    expect((await f.app.inject({ method: 'POST', url, payload: newTenant })).statusCode).toBe(401);
    const owner = await f.signIn('admin@acme.test');
    expect(
      (
        await f.app.inject({
          method: 'POST',
          url: '/api/partner/acme/tenants',
          headers: auth(owner),
          payload: newTenant,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await f.app.inject({
          method: 'POST',
          url: '/api/partner/globex/tenants',
          headers: auth(partner),
          payload: newTenant,
        })
      ).statusCode,
    ).toBe(404);
    const bad = await f.app.inject({
      method: 'POST',
      url,
      headers: auth(partner),
      payload: {
        name: 'Not a slug!',
        displayName: ' ',
        owner: { email: 'nope', firstname: 'A', lastname: '' },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['body.displayName', 'body.name', 'body.owner.email', 'body.owner.lastname']);
    const taken = await f.app.inject({
      method: 'POST',
      url,
      headers: auth(partner),
      payload: { ...newTenant, name: 'globex' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'tenant_exists', details: [{ path: 'body.name' }] });
    const ownerTaken = await f.app.inject({
      method: 'POST',
      url,
      headers: auth(partner),
      payload: { ...newTenant, owner: { ...newTenant.owner, email: 'admin@acme.test' } },
    });
    expect(ownerTaken.statusCode).toBe(409);
    expect(ownerTaken.json()).toMatchObject({ code: 'user_exists', details: [{ path: 'body.owner.email' }] });
    expect(await tenantCount()).toBe(before);
  });

  it('creates a customer of the partner, invites its owner by mail and records it in both logs', async () => {
    const res = await f.app.inject({ method: 'POST', url, headers: auth(partner), payload: newTenant });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'initech',
      displayName: 'Initech',
      kind: 'customer',
      partner: 'northwind',
      status: 'active',
      users: 0,
    });
    const listed = await f.app.inject({ url, headers: auth(partner) });
    expect(listed.json().items.map((t: { name: string }) => t.name)).toEqual(['acme', 'initech']);
    // The new customer is on its 14-day trial; acme (made without one) shows none.
    const [acme, initech] = listed.json().items;
    expect(acme.subscription).toBeNull();
    expect(initech.subscription).toMatchObject({ plan: 'trial', status: 'trial' });
    const days = (Date.parse(initech.subscription.trialEndsAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    const [mail] = await readOutbox(f.database, 'owner@initech.test');
    expect(mail.subject).toContain('initech');
    expect(mail.text).toMatch(/\/verify\/[\w-]+/);
    expect(await actions('northwind')).toContain('tenant.create by partner@northwind.test');
    expect(await actions('initech')).toEqual([
      'tenant.create by partner@northwind.test',
      // Its 14-day trial starts with it (modules/subscriptions).
      'subscription.start by partner@northwind.test',
      'admin.invite by partner@northwind.test',
    ]);
    // The partner works in it like in its other customers.
    const admins = await f.app.inject({ url: '/api/admins/initech', headers: auth(partner) });
    expect(admins.statusCode).toBe(200);
    expect(admins.json().items).toMatchObject([{ username: 'owner@initech.test', role: 'owner' }]);
  });
});

describe('the partner console: suspend, resume and move', () => {
  const acmeId = () => f.acme.id;

  it('answers 401, 403, 404 and 400 with the fields', async () => {
    const url = `/api/partner/northwind/tenants/${acmeId()}/status`;
    const payload = { status: 'suspended' };
    expect((await f.app.inject({ method: 'PUT', url, payload })).statusCode).toBe(401);
    const owner = await f.signIn('admin@acme.test');
    expect(
      (
        await f.app.inject({
          method: 'PUT',
          url: `/api/partner/acme/tenants/${acmeId()}/status`,
          headers: auth(owner),
          payload,
        })
      ).statusCode,
    ).toBe(403);
    // Globex is not northwind's.
    const other = await f.app.inject({
      method: 'PUT',
      url: `/api/partner/northwind/tenants/${f.globex.id}/status`,
      headers: auth(partner),
      payload,
    });
    expect(other.statusCode).toBe(404);
    const badId = await f.app.inject({
      method: 'PUT',
      url: '/api/partner/northwind/tenants/nope/status',
      headers: auth(partner),
      payload,
    });
    expect(badId.statusCode).toBe(400);
    expect(paths(badId)).toEqual(['params.id']);
    const bad = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(partner),
      payload: { status: 'paused' },
    });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['body.status']);
    const listed = await f.app.inject({ url: '/api/partner/northwind/tenants', headers: auth(partner) });
    expect(listed.json().items[0]).toMatchObject({ name: 'acme', status: 'active' });
  });

  it('suspends a tenant: its sessions and API tokens stop and it cannot sign in, until it is resumed', async () => {
    const owner = await f.signIn('admin@acme.test');
    const token = await f.app.inject({
      method: 'POST',
      url: '/api/me/tokens',
      headers: auth(owner),
      payload: { name: 'Automation', role: 'auditor' },
    });
    const bearer = { authorization: `Bearer ${token.json().secret}` };
    expect((await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: bearer })).statusCode).toBe(
      200,
    );

    const url = `/api/partner/northwind/tenants/${acmeId()}/status`;
    const suspended = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(partner),
      payload: { status: 'suspended' },
    });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json()).toMatchObject({ name: 'acme', status: 'suspended' });
    expect(suspended.json().suspendedAt).not.toBeNull();

    expect((await f.app.inject({ url: '/api/session', headers: auth(owner) })).statusCode).toBe(401);
    expect((await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: bearer })).statusCode).toBe(
      401,
    );
    const signIn = await f.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'admin@acme.test', password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json()).toMatchObject({ code: 'tenant_suspended', errcode: 21 });
    // Its partner still reaches it, and lists it as suspended.
    expect(
      (await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: auth(partner) })).statusCode,
    ).toBe(200);
    const listed = await f.app.inject({
      url: '/api/partner/northwind/tenants?status=suspended',
      headers: auth(partner),
    });
    expect(listed.json().items.map((t: { name: string }) => t.name)).toEqual(['acme']);

    const resumed = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(partner),
      payload: { status: 'active' },
    });
    expect(resumed.json()).toMatchObject({ status: 'active', suspendedAt: null });
    expect(await f.signIn('admin@acme.test')).toBeTruthy();
    expect((await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: bearer })).statusCode).toBe(
      200,
    );
    const log = await actions('acme');
    expect(log).toEqual(
      expect.arrayContaining([
        'tenant.suspend by partner@northwind.test',
        'tenant.resume by partner@northwind.test',
      ]),
    );
    expect(await actions('northwind')).toEqual(
      expect.arrayContaining([
        'tenant.suspend by partner@northwind.test',
        'tenant.resume by partner@northwind.test',
      ]),
    );
  });

  it('moves a customer to another partner: platform admins only, to a partner that exists', async () => {
    const url = `/api/partner/platform/tenants/${f.globex.id}/partner`;
    const move = (token: string, partnerName: string, at = url) =>
      f.app.inject({ method: 'PUT', url: at, headers: auth(token), payload: { partner: partnerName } });
    expect((await f.app.inject({ method: 'PUT', url, payload: { partner: 'northwind' } })).statusCode).toBe(
      401,
    );
    expect(
      (await move(partner, 'northwind', `/api/partner/northwind/tenants/${acmeId()}/partner`)).statusCode,
    ).toBe(403);
    const unknown = await move(root, 'acme');
    expect(unknown.statusCode).toBe(400);
    expect(paths(unknown)).toEqual(['body.partner']);
    const moved = await move(root, 'northwind');
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ name: 'globex', partner: 'northwind' });
    const listed = await f.app.inject({ url: '/api/partner/northwind/tenants', headers: auth(partner) });
    expect(listed.json().items.map((t: { name: string }) => t.name)).toContain('globex');
    expect(await actions('globex')).toContain('tenant.move by root@platform.test');
  });
});

describe('partner-edit mode: PUT session/target/{tenant}', () => {
  const tenantUpdate = {
    displayName: 'Acme (edited)',
    themevalue: 'light',
    palette: 'classic',
    primaryColor: null,
  };
  const open = (token: string, tenant: string, payload: Record<string, unknown>) =>
    f.app.inject({ method: 'PUT', url: `/api/session/target/${tenant}`, headers: auth(token), payload });
  const write = (token: string, tenant: string) =>
    f.app.inject({
      method: 'PUT',
      url: `/api/subscriber/tenant/${tenant}`,
      headers: auth(token),
      payload: { ...tenantUpdate, displayName: `${tenant} (edited)` },
    });

  it('answers 401, 404 for a tenant not managed, 400 with the fields, 403 to an API token', async () => {
    expect(
      (await f.app.inject({ method: 'PUT', url: '/api/session/target/acme', payload: { edit: true } }))
        .statusCode,
    ).toBe(401);
    const owner = await f.signIn('admin@acme.test');
    expect((await open(owner, 'globex', { edit: true })).statusCode).toBe(404);
    const session = await f.signIn('partner@northwind.test');
    const bad = await open(session, 'acme', { edit: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['body.edit']);
    const token = await f.app.inject({
      method: 'POST',
      url: '/api/me/tokens',
      headers: auth(session),
      payload: { name: 'Partner automation', role: 'auditor' },
    });
    const byToken = await f.app.inject({
      method: 'PUT',
      url: '/api/session/target/acme',
      headers: { authorization: `Bearer ${token.json().secret}` },
      payload: { edit: true },
    });
    expect(byToken.statusCode).toBe(403);
  });

  it('read-only refuses every write there and elsewhere; edit mode writes only in the opened tenant, logged as the partner acting', async () => {
    const session = await f.signIn('partner@northwind.test');
    const readOnly = await open(session, 'acme', { edit: false });
    expect(readOnly.statusCode).toBe(200);
    expect(readOnly.json().target).toEqual({ tenant: 'acme', edit: false });
    const refused = await write(session, 'acme');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'partner_read_only', errcode: 22 });
    expect(
      (await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: auth(session) })).json().displayName,
    ).not.toBe('acme (edited)');
    expect(
      (await f.app.inject({ url: '/api/subscriber/user/acme', headers: auth(session) })).statusCode,
    ).toBe(200);

    const edit = await open(session, 'acme', { edit: true });
    expect(edit.json().target).toEqual({ tenant: 'acme', edit: true });
    expect((await write(session, 'acme')).statusCode).toBe(200);
    // Globex is northwind's too now (moved above), but this session opened acme.
    expect((await write(session, 'globex')).statusCode).toBe(403);
    // The partner's own tenant is its own: the console's writes go on.
    expect(
      (await f.app.inject({ url: '/api/partner/northwind/tenants', headers: auth(session) })).statusCode,
    ).toBe(200);

    const events = await f.app.inject({
      url: '/api/events/admin/acme?limit=5&order=desc',
      headers: auth(session),
    });
    expect(events.json().items[0]).toMatchObject({
      action: 'tenant.update',
      actor: 'partner@northwind.test',
      actingFrom: 'northwind',
    });
    // Another session of the same partner opened nothing: it is not held.
    expect((await write(await f.signIn('partner@northwind.test'), 'globex')).statusCode).toBe(200);

    // Back in its own tenant, the session opened none.
    const closed = await open(session, 'northwind', { edit: false });
    expect(closed.json().target).toBeNull();
    expect((await write(session, 'globex')).statusCode).toBe(200);
  });
});
