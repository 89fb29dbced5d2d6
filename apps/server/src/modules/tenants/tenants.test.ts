import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const valid = { displayName: 'Acme Corp', themevalue: 'dark', palette: 'modern', primaryColor: '#112233' };

describe('tenant API', () => {
  it('GET subscriber/tenant/{name}: 401, other tenant 404, happy path', async () => {
    expect((await f.app.inject({ url: '/api/subscriber/tenant/acme' })).statusCode).toBe(401);
    const token = await f.signIn('admin@acme.test');
    expect(
      (await f.app.inject({ url: '/api/subscriber/tenant/globex', headers: auth(token) })).statusCode,
    ).toBe(404);
    const res = await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: auth(token) });
    expect(res.json()).toMatchObject({
      name: 'acme',
      kind: 'customer',
      parent: 'northwind',
      themevalue: 'light',
      palette: 'classic',
    });
  });

  it('PUT subscriber/tenant/{name}: 401, 403, 404, 400 with details, then saves and logs before/after', async () => {
    const url = '/api/subscriber/tenant/acme';
    expect((await f.app.inject({ method: 'PUT', url, payload: valid })).statusCode).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect(
      (await f.app.inject({ method: 'PUT', url, headers: auth(auditor), payload: valid })).statusCode,
    ).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect(
      (await f.app.inject({ method: 'PUT', url, headers: auth(globex), payload: valid })).statusCode,
    ).toBe(404);

    const token = await f.signIn('admin@acme.test');
    const bad = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(token),
      payload: { displayName: ' ', themevalue: 'neon', palette: 'classic', primaryColor: 'red' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.displayName', 'body.primaryColor', 'body.themevalue']);
    const unchanged = await f.app.inject({ url, headers: auth(token) });
    expect(unchanged.json().themevalue).toBe('light');

    const ok = await f.app.inject({ method: 'PUT', url, headers: auth(token), payload: valid });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject(valid);
    const session = await f.app.inject({ url: '/api/session', headers: auth(token) });
    expect(session.json()).toMatchObject({
      tenantTheme: 'dark',
      tenantPalette: 'modern',
      tenantDisplayName: 'Acme Corp',
    });
    const dash = await f.app.inject({ url: '/api/dashboard/acme/summary', headers: auth(token) });
    expect(dash.json().recentEvents[0]).toMatchObject({
      action: 'tenant.update',
      objectType: 'tenant',
      actor: 'admin@acme.test',
    });
  });

  it('lets the partner administrator manage its customer tenant only', async () => {
    const partner = await f.signIn('partner@northwind.test');
    expect(
      (await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: auth(partner) })).statusCode,
    ).toBe(200);
    expect(
      (await f.app.inject({ url: '/api/subscriber/tenant/globex', headers: auth(partner) })).statusCode,
    ).toBe(404);
    const session = await f.app.inject({ url: '/api/session', headers: auth(partner) });
    expect(session.json().managedTenants).toEqual(['acme']);
    // The switcher names each managed tenant by its display name.
    const acme = await f.app.inject({ url: '/api/subscriber/tenant/acme', headers: auth(partner) });
    expect(acme.json().displayName).not.toBe('acme');
    expect(session.json().managedTenantDisplayNames).toEqual({ acme: acme.json().displayName });
  });

  it('GET tenant/primaryuser answers the owner of the signed-in tenant', async () => {
    expect((await f.app.inject({ url: '/api/tenant/primaryuser' })).statusCode).toBe(401);
    const billing = await f.signIn('billing@acme.test');
    expect(
      (await f.app.inject({ url: '/api/tenant/primaryuser', headers: auth(billing) })).json(),
    ).toMatchObject({ email: 'admin@acme.test' });
    const token = await f.signIn('admin@globex.test');
    expect(
      (await f.app.inject({ url: '/api/tenant/primaryuser', headers: auth(token) })).json(),
    ).toMatchObject({ email: 'admin@globex.test', username: 'admin@globex.test' });
  });
});
