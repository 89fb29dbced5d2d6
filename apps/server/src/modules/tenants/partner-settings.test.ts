import { MAX_LOGO_BYTES, TENANT_DELETION_GRACE_MS } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addPlatformAdmin, PASSWORD, useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { purgeDueTenants } from './tenant-deletion.service';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const paths = (res: { json(): { details?: { path: string }[] } }) =>
  (res.json().details ?? []).map((d) => d.path).sort();

async function actions(tenant: string) {
  const rows = await queryRows<{ action: string; actor_name: string }>(
    f.database.db,
    sql`select e.action, e.actor_name from admin_events e join tenants t on t.id = e.tenant_id
        where t.name = ${tenant} order by e.at`,
  );
  return rows.map((r) => `${r.action} by ${r.actor_name}`);
}

/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** The first bytes of a JPEG. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

let partner: string;
let root: string;
let owner: string;
beforeAll(async () => {
  await addPlatformAdmin(f.database);
  partner = await f.signIn('partner@northwind.test');
  root = await f.signIn('root@platform.test');
  owner = await f.signIn('admin@acme.test');
});

const settingsBody = {
  displayName: 'Northwind Networks',
  primaryColor: '#0a7cff',
  accentColor: '#ff8800',
  support: {
    email: 'help@northwind.test',
    phone: '+49 30 1234567',
    url: 'https://support.northwind.test',
    hours: 'Mon–Fri 8:00–18:00',
  },
};

describe('partner settings: GET/PUT partner/{tenant}/settings', () => {
  const url = '/api/partner/northwind/settings';

  it('answers 401, 403 to a customer role, 404 for a tenant that is not a partner', async () => {
    expect((await f.app.inject({ url })).statusCode).toBe(401);
    expect((await f.app.inject({ method: 'PUT', url, payload: settingsBody })).statusCode).toBe(401);
    expect((await f.app.inject({ url: '/api/partner/acme/settings', headers: auth(owner) })).statusCode).toBe(
      403,
    );
    // A customer of its own has no partner settings; a tenant it does not manage is not found.
    for (const name of ['acme', 'globex', 'platform']) {
      const res = await f.app.inject({ url: `/api/partner/${name}/settings`, headers: auth(partner) });
      expect(res.statusCode, name).toBe(404);
    }
  });

  it('answers 400 naming the fields, changing nothing', async () => {
    const res = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(partner),
      payload: {
        displayName: ' ',
        primaryColor: 'blue',
        accentColor: '#12345',
        support: { email: 'not-mail', phone: 'call me', url: 'javascript:alert(1)', hours: null },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual([
      'body.accentColor',
      'body.displayName',
      'body.primaryColor',
      'body.support.email',
      'body.support.phone',
      'body.support.url',
    ]);
    const now = await f.app.inject({ url, headers: auth(partner) });
    expect(now.json()).toMatchObject({ displayName: 'Northwind', primaryColor: '#1c5d99', logo: null });
  });

  it('saves the settings, records them, and the platform edits them too', async () => {
    const res = await f.app.inject({ method: 'PUT', url, headers: auth(partner), payload: settingsBody });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'northwind', logo: null, ...settingsBody });
    expect(await actions('northwind')).toContain('partner.settings.update by partner@northwind.test');
    // Blank support fields are cleared.
    const cleared = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(root),
      payload: { ...settingsBody, support: { ...settingsBody.support, phone: '', hours: '' } },
    });
    expect(cleared.json().support).toEqual({ ...settingsBody.support, phone: null, hours: null });
    await f.app.inject({ method: 'PUT', url, headers: auth(partner), payload: settingsBody });
  });
});

describe('the partner logo: PUT/DELETE partner/{tenant}/logo and the public GET partner/{name}/logo', () => {
  const url = '/api/partner/northwind/logo';
  const put = (body: Buffer, type: string, token?: string) =>
    f.app.inject({
      method: 'PUT',
      url,
      headers: { 'content-type': type, ...(token ? auth(token) : {}) },
      payload: body,
    });

  it('answers 401, 403 and 404', async () => {
    expect((await put(PNG, 'image/png')).statusCode).toBe(401);
    const res = await f.app.inject({
      method: 'PUT',
      url: '/api/partner/acme/logo',
      headers: { 'content-type': 'image/png', ...auth(owner) },
      payload: PNG,
    });
    expect(res.statusCode).toBe(403);
    const other = await f.app.inject({
      method: 'PUT',
      url: '/api/partner/acme/logo',
      headers: { 'content-type': 'image/png', ...auth(partner) },
      payload: PNG,
    });
    expect(other.statusCode).toBe(404);
    expect((await f.app.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    expect((await f.app.inject({ url: '/api/partner/northwind/logo' })).statusCode).toBe(404);
  });

  it('refuses an SVG, a PNG header over other bytes, a mislabelled file and one over 256 kB, keeping nothing', async () => {
    const fake = Buffer.concat([Buffer.from('89504e47', 'hex'), Buffer.from('not really a png')]);
    const big = Buffer.concat([PNG, Buffer.alloc(300 * 1024 - PNG.length)]);
    const cases: [Buffer, string, string][] = [
      [SVG, 'image/svg+xml', 'validation.logoType'],
      [fake, 'image/png', 'validation.logoContent'],
      [PNG, 'image/jpeg', 'validation.logoContent'],
      [SVG, 'image/png', 'validation.logoContent'],
      [big, 'image/png', 'validation.logoTooLarge'],
    ];
    for (const [body, type, message] of cases) {
      const res = await put(body, type, partner);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().details, message).toMatchObject([{ path: 'body.logo', message }]);
    }
    expect(big.length).toBeGreaterThan(MAX_LOGO_BYTES);
    const settings = await f.app.inject({ url: '/api/partner/northwind/settings', headers: auth(partner) });
    expect(settings.json().logo).toBeNull();
    expect((await f.app.inject({ url: '/api/partner/northwind/logo' })).statusCode).toBe(404);
  });

  it('stores a PNG, serves it publicly with its type, ETag and nosniff, and the branding points to it', async () => {
    const res = await put(PNG, 'image/png', partner);
    expect(res.statusCode).toBe(200);
    const logo = res.json().logo as string;
    expect(logo).toMatch(/^\/api\/partner\/northwind\/logo\?v=[0-9a-f]{16}$/);
    const served = await f.app.inject({ url: logo });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toContain('max-age');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const again = await f.app.inject({
      url: logo,
      headers: { 'if-none-match': String(served.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const branding = await f.app.inject({ url: '/api/partner/northwind' });
    expect(branding.json()).toEqual({
      name: 'northwind',
      displayName: 'Northwind Networks',
      primaryColor: '#0a7cff',
      accentColor: '#ff8800',
      logo,
    });
    expect(await actions('northwind')).toContain('partner.logo.update by partner@northwind.test');
    // A JPEG replaces it.
    const jpeg = await put(JPEG, 'image/jpeg', root);
    expect(jpeg.json().logo).not.toBe(logo);
    expect((await f.app.inject({ url: jpeg.json().logo })).headers['content-type']).toBe('image/jpeg');
  });

  it('removes the logo', async () => {
    const res = await f.app.inject({ method: 'DELETE', url, headers: auth(partner) });
    expect(res.statusCode).toBe(200);
    expect(res.json().logo).toBeNull();
    expect((await f.app.inject({ url: '/api/partner/northwind/logo' })).statusCode).toBe(404);
    expect((await f.app.inject({ url: '/api/partner/northwind' })).json().logo).toBeNull();
  });
});

describe('partner info: GET partner/info/{id}', () => {
  it('answers 401, 404 for a tenant the caller does not reach or without a partner, 400 for a bad name', async () => {
    expect((await f.app.inject({ url: '/api/partner/info/acme' })).statusCode).toBe(401);
    const globex = await f.signIn('admin@globex.test');
    expect((await f.app.inject({ url: '/api/partner/info/acme', headers: auth(globex) })).statusCode).toBe(
      404,
    );
    expect((await f.app.inject({ url: '/api/partner/info/globex', headers: auth(globex) })).statusCode).toBe(
      404,
    );
    expect((await f.app.inject({ url: '/api/partner/info/globex', headers: auth(partner) })).statusCode).toBe(
      404,
    );
    const bad = await f.app.inject({ url: '/api/partner/info/Not_A_Name!', headers: auth(owner) });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['params.id']);
  });

  it("shows a tenant's users their partner with its support contact; its partner and the platform see it too", async () => {
    await f.app.inject({
      method: 'PUT',
      url: '/api/partner/northwind/settings',
      headers: auth(partner),
      payload: settingsBody,
    });
    const enduser = await f.signIn('auditor@acme.test');
    for (const token of [owner, enduser, partner, root]) {
      const res = await f.app.inject({ url: '/api/partner/info/acme', headers: auth(token) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        name: 'northwind',
        displayName: 'Northwind Networks',
        partnername: 'northwind',
        primaryColor: '#0a7cff',
        accentColor: '#ff8800',
        logo: null,
        support: settingsBody.support,
      });
    }
    const own = await f.app.inject({ url: '/api/partner/info/northwind', headers: auth(partner) });
    expect(own.json().name).toBe('northwind');
  });
});

describe('deleting a tenant with a grace period', () => {
  const url = (id: string) => `/api/partner/northwind/tenants/${id}`;
  const signIn = (username: string) =>
    f.app.inject({ method: 'POST', url: '/api/session', payload: { username, password: PASSWORD } });

  it('answers 401, 403, 404 for a tenant another partner manages, 400 for a bad id', async () => {
    expect((await f.app.inject({ method: 'DELETE', url: url(f.acme.id) })).statusCode).toBe(401);
    expect((await f.app.inject({ method: 'POST', url: `${url(f.acme.id)}/restore` })).statusCode).toBe(401);
    const res = await f.app.inject({
      method: 'DELETE',
      url: `/api/partner/acme/tenants/${f.acme.id}`,
      headers: auth(owner),
    });
    expect(res.statusCode).toBe(403);
    // globex is not northwind's.
    for (const [method, path] of [
      ['DELETE', url(f.globex.id)],
      ['POST', `${url(f.globex.id)}/restore`],
    ] as const) {
      expect((await f.app.inject({ method, url: path, headers: auth(partner) })).statusCode).toBe(404);
    }
    const bad = await f.app.inject({ method: 'DELETE', url: url('nope'), headers: auth(partner) });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['params.id']);
    const active = await f.app.inject({
      method: 'POST',
      url: `${url(f.acme.id)}/restore`,
      headers: auth(partner),
    });
    expect(active.statusCode).toBe(409);
    expect((await signIn('admin@globex.test')).statusCode).toBe(200);
  });

  it('stops sign-in, sessions and the tenant at once; a restore brings it back', async () => {
    const session = await f.signIn('admin@acme.test');
    const before = Date.now();
    const res = await f.app.inject({ method: 'DELETE', url: url(f.acme.id), headers: auth(partner) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'acme', status: 'deletion_scheduled' });
    const due = Date.parse(res.json().deletionDueAt);
    expect(due).toBeGreaterThanOrEqual(before + TENANT_DELETION_GRACE_MS);
    expect(due).toBeLessThan(Date.now() + TENANT_DELETION_GRACE_MS + 1000);

    const refused = await signIn('admin@acme.test');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ errcode: 27, code: 'tenant_pending_deletion' });
    expect(
      (await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: auth(session) })).statusCode,
    ).toBe(401);
    // Listed under its own status; it cannot be resumed around the deletion, nor deleted twice.
    const listed = await f.app.inject({
      url: '/api/partner/northwind/tenants?status=deletion_scheduled',
      headers: auth(partner),
    });
    expect(listed.json()).toMatchObject({
      total: 1,
      items: [{ name: 'acme', status: 'deletion_scheduled' }],
    });
    const suspended = await f.app.inject({
      url: '/api/partner/northwind/tenants?status=suspended',
      headers: auth(partner),
    });
    expect(suspended.json().total).toBe(0);
    const resume = await f.app.inject({
      method: 'PUT',
      url: `${url(f.acme.id)}/status`,
      headers: auth(partner),
      payload: { status: 'active' },
    });
    expect(resume.json()).toMatchObject({ errcode: 27 });
    expect(
      (await f.app.inject({ method: 'DELETE', url: url(f.acme.id), headers: auth(partner) })).statusCode,
    ).toBe(403);

    const restored = await f.app.inject({
      method: 'POST',
      url: `${url(f.acme.id)}/restore`,
      headers: auth(partner),
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ status: 'active', deletionDueAt: null, suspendedAt: null });
    expect((await signIn('admin@acme.test')).statusCode).toBe(200);
    expect(await actions('acme')).toEqual(
      expect.arrayContaining([
        'tenant.delete by partner@northwind.test',
        'tenant.restore by partner@northwind.test',
      ]),
    );
    expect(await actions('northwind')).toEqual(
      expect.arrayContaining([
        'tenant.delete by partner@northwind.test',
        'tenant.restore by partner@northwind.test',
      ]),
    );
    // Nothing is purged once restored, however late.
    expect(await purgeDueTenants(f.database, new Date(Date.now() + 2 * TENANT_DELETION_GRACE_MS))).toEqual(
      [],
    );
  });

  it('keeps a suspended tenant suspended when its deletion is cancelled', async () => {
    await f.app.inject({
      method: 'PUT',
      url: `${url(f.acme.id)}/status`,
      headers: auth(partner),
      payload: { status: 'suspended' },
    });
    await f.app.inject({ method: 'DELETE', url: url(f.acme.id), headers: auth(root) });
    const restored = await f.app.inject({
      method: 'POST',
      url: `${url(f.acme.id)}/restore`,
      headers: auth(root),
    });
    expect(restored.json()).toMatchObject({ status: 'suspended', deletionDueAt: null });
    await f.app.inject({
      method: 'PUT',
      url: `${url(f.acme.id)}/status`,
      headers: auth(partner),
      payload: { status: 'active' },
    });
    expect((await signIn('admin@acme.test')).statusCode).toBe(200);
  });

  it('purges a tenant, its users and what they hold after the grace period, and records it in the partner log', async () => {
    const created = await f.app.inject({
      method: 'POST',
      url: '/api/partner/northwind/tenants',
      headers: auth(partner),
      payload: {
        name: 'initech',
        displayName: 'Initech',
        owner: { email: 'owner@initech.test', firstname: 'Bill', lastname: 'Lumbergh' },
      },
    });
    const id = created.json().id as string;
    // A custom role held by its owner (users_custom_role restricts deleting a role still held).
    const [role] = await queryRows<{ id: string }>(
      f.database.db,
      sql`insert into custom_roles (tenant_id, name) values (${id}, 'Viewer') returning id`,
    );
    await f.database.db.execute(
      sql`update users set role = 'custom', custom_role_id = ${role.id} where tenant_id = ${id}`,
    );
    const now = new Date();
    const res = await f.app.inject({ method: 'DELETE', url: url(id), headers: auth(partner) });
    expect(res.statusCode).toBe(200);
    // Not before the grace period is over.
    expect(
      await purgeDueTenants(f.database, new Date(now.getTime() + TENANT_DELETION_GRACE_MS - 60_000)),
    ).toEqual([]);
    expect(
      await purgeDueTenants(f.database, new Date(now.getTime() + TENANT_DELETION_GRACE_MS + 60_000)),
    ).toEqual(['initech']);
    const left = await queryRows<{ tenants: number; users: number; roles: number; events: number }>(
      f.database.db,
      sql`select (select count(*)::int from tenants where id = ${id}) as tenants,
            (select count(*)::int from users where tenant_id = ${id}) as users,
            (select count(*)::int from custom_roles where tenant_id = ${id}) as roles,
            (select count(*)::int from admin_events where tenant_id = ${id}) as events`,
    );
    expect(left[0]).toEqual({ tenants: 0, users: 0, roles: 0, events: 0 });
    expect(await actions('northwind')).toContain('tenant.purge by system');
    const gone = await f.app.inject({ method: 'POST', url: `${url(id)}/restore`, headers: auth(partner) });
    expect(gone.statusCode).toBe(404);
    // The other tenants are untouched.
    expect((await signIn('admin@acme.test')).statusCode).toBe(200);
  });

  it('deletes only customer tenants', async () => {
    const [northwind] = await queryRows<{ id: string }>(
      f.database.db,
      sql`select id from tenants where name = 'northwind'`,
    );
    const res = await f.app.inject({
      method: 'DELETE',
      url: `/api/partner/platform/tenants/${northwind.id}`,
      headers: auth(root),
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['params.id']);
  });
});
