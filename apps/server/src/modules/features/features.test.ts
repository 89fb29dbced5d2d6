import { FEATURE_FLAGS } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addPlatformAdmin, useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const paths = (res: { json(): { details?: { path: string }[] } }) =>
  (res.json().details ?? []).map((d) => d.path).sort();

/** The admin events of a tenant: action, actor and where they acted from. */
async function events(tenant: string, action: string) {
  return queryRows<{ actor_name: string; acting_from: string | null; before: unknown; after: unknown }>(
    f.database.db,
    sql`select e.actor_name, e.acting_from, e.before, e.after from admin_events e
        join tenants t on t.id = e.tenant_id where t.name = ${tenant} and e.action = ${action} order by e.at`,
  );
}

let partner: string;
let root: string;
let owner: string;
beforeAll(async () => {
  await addPlatformAdmin(f.database);
  partner = await f.signIn('partner@northwind.test');
  root = await f.signIn('root@platform.test');
  owner = await f.signIn('admin@acme.test');
});

const featuresUrl = (console: string, id = f.acme.id) => `/api/partner/${console}/tenants/${id}/features`;

describe('feature flags per tenant: GET/PUT partner/{tenant}/tenants/{id}/features', () => {
  it('answers 401 without a session and 403 to a customer role', async () => {
    expect((await f.app.inject({ url: featuresUrl('northwind') })).statusCode).toBe(401);
    const res = await f.app.inject({ url: featuresUrl('acme'), headers: auth(owner) });
    expect(res.statusCode).toBe(403);
    const put = await f.app.inject({
      method: 'PUT',
      url: featuresUrl('acme'),
      headers: auth(owner),
      payload: { features: { analyticsDashboard: false } },
    });
    expect(put.statusCode).toBe(403);
  });

  it('answers 404 to a partner for a tenant it does not manage, and for another partner console', async () => {
    const other = await f.app.inject({ url: featuresUrl('northwind', f.globex.id), headers: auth(partner) });
    expect(other.statusCode).toBe(404);
    const put = await f.app.inject({
      method: 'PUT',
      url: featuresUrl('northwind', f.globex.id),
      headers: auth(partner),
      payload: { features: { webFilter: false } },
    });
    expect(put.statusCode).toBe(404);
    const console = await f.app.inject({ url: featuresUrl('platform'), headers: auth(partner) });
    expect(console.statusCode).toBe(404);
  });

  it('answers 400 naming each unknown flag and each value that is not a switch', async () => {
    const res = await f.app.inject({
      method: 'PUT',
      url: featuresUrl('northwind'),
      headers: auth(partner),
      payload: { features: { webFilter: 'off', teleport: true } },
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['body.features.teleport', 'body.features.webFilter']);
    const missing = await f.app.inject({
      method: 'PUT',
      url: featuresUrl('northwind'),
      headers: auth(partner),
      payload: {},
    });
    expect(paths(missing)).toEqual(['body.features']);
  });

  it('starts from the defaults: every switch on; the platform has every flag a plan sells', async () => {
    const res = await f.app.inject({ url: featuresUrl('northwind'), headers: auth(partner) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      tenant: 'acme',
      isCustomised: false,
      updatedAt: null,
      features: { webFilter: true, ztnaFirewall: true, analyticsDashboard: true, xdr: true },
    });
    const session = await f.app.inject({ url: '/api/session', headers: auth(root) });
    expect(session.json().features).toEqual(FEATURE_FLAGS.filter((flag) => flag !== 'xdr'));
  });

  it("lets the partner turn flags off and on, recorded in the partner's and the tenant's logs", async () => {
    const res = await f.app.inject({
      method: 'PUT',
      url: featuresUrl('northwind'),
      headers: auth(partner),
      payload: { features: { ztnaFirewall: false, analyticsDashboard: false } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      isCustomised: true,
      features: { ztnaFirewall: false, analyticsDashboard: false, webFilter: true },
    });
    expect(res.json().updatedAt).toEqual(expect.any(String));
    const [inTenant] = await events('acme', 'tenant.features.update');
    expect(inTenant).toMatchObject({
      actor_name: 'partner@northwind.test',
      acting_from: 'northwind',
      before: { ztnaFirewall: true, analyticsDashboard: true },
      after: { ztnaFirewall: false, analyticsDashboard: false },
    });
    expect(await events('northwind', 'tenant.features.update')).toHaveLength(1);
    // The tenant's own session lists what it has now.
    const session = await f.app.inject({ url: '/api/session', headers: auth(owner) });
    expect(session.json().features).toContain('webFilter');
    expect(session.json().features).not.toContain('ztnaFirewall');
    expect(session.json().features).not.toContain('analyticsDashboard');
    // Unchanged values record nothing.
    await f.app.inject({
      method: 'PUT',
      url: featuresUrl('northwind'),
      headers: auth(partner),
      payload: { features: { ztnaFirewall: false } },
    });
    expect(await events('acme', 'tenant.features.update')).toHaveLength(1);
  });

  it('lets the platform admin set any tenant, and back to the defaults', async () => {
    const res = await f.app.inject({
      method: 'PUT',
      url: featuresUrl('platform'),
      headers: auth(root),
      payload: { features: { ztnaFirewall: true, analyticsDashboard: true } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      isCustomised: false,
      features: { ztnaFirewall: true, analyticsDashboard: true },
    });
    const globex = await f.app.inject({ url: featuresUrl('platform', f.globex.id), headers: auth(root) });
    expect(globex.statusCode).toBe(200);
  });
});

describe('the server refuses what a tenant does not have: 403 feature_disabled', () => {
  const setFlag = (features: Record<string, boolean>) =>
    f.app.inject({
      method: 'PUT',
      url: featuresUrl('northwind'),
      headers: auth(partner),
      payload: { features },
    });

  it('answers 403 on the ZTNA firewall while ztnaFirewall is off, 200 again once it is on', async () => {
    expect((await setFlag({ ztnaFirewall: false })).statusCode).toBe(200);
    const off = await f.app.inject({ url: '/api/devices/acme/ztna-firewall', headers: auth(owner) });
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({ errcode: 26, code: 'feature_disabled' });
    // Also for the partner working in the tenant: the flag is the tenant's.
    const asPartner = await f.app.inject({ url: '/api/devices/acme/ztna-firewall', headers: auth(partner) });
    expect(asPartner.statusCode).toBe(403);
    // Without a session it is still 401, and another tenant is not affected.
    expect((await f.app.inject({ url: '/api/devices/acme/ztna-firewall' })).statusCode).toBe(401);
    const globex = await f.signIn('admin@globex.test');
    expect(
      (await f.app.inject({ url: '/api/devices/globex/ztna-firewall', headers: auth(globex) })).statusCode,
    ).toBe(200);
    expect((await setFlag({ ztnaFirewall: true })).statusCode).toBe(200);
    const on = await f.app.inject({ url: '/api/devices/acme/ztna-firewall', headers: auth(owner) });
    expect(on.statusCode).toBe(200);
  });

  it('gates the analytics and compliance reports and custom web categories', async () => {
    await setFlag({ analyticsDashboard: false, securityCompliance: false, webFilter: false });
    const analytics = await f.app.inject({ url: '/api/reports/acme/analytics', headers: auth(owner) });
    const compliance = await f.app.inject({
      url: '/api/reports/acme/security-compliance',
      headers: auth(owner),
    });
    const category = await f.app.inject({
      method: 'POST',
      url: '/api/policy/categories/acme',
      headers: auth(owner),
      payload: { name: 'Blocked', domains: ['example.com'] },
    });
    expect([analytics.statusCode, compliance.statusCode, category.statusCode]).toEqual([403, 403, 403]);
    expect(category.json().code).toBe('feature_disabled');
    // Reading the categories (policies name them) stays allowed.
    expect(
      (await f.app.inject({ url: '/api/policy/categories/acme', headers: auth(owner) })).statusCode,
    ).toBe(200);
    await setFlag({ analyticsDashboard: true, securityCompliance: true, webFilter: true });
    expect(
      (await f.app.inject({ url: '/api/reports/acme/security-compliance', headers: auth(owner) })).statusCode,
    ).toBe(200);
  });
});

describe('configuration flags: GET/PUT tenant/{tenant}/configurations', () => {
  const url = '/api/tenant/acme/configurations';

  it('answers 401 without a session, 404 for another tenant, 403 to a role without tenant:update', async () => {
    expect((await f.app.inject({ url })).statusCode).toBe(401);
    const globex = await f.signIn('admin@globex.test');
    expect((await f.app.inject({ url, headers: auth(globex) })).statusCode).toBe(404);
    const enduser = await f.signIn('enduser@acme.test');
    expect((await f.app.inject({ url, headers: auth(enduser) })).statusCode).toBe(403);
    const auditor = await f.signIn('auditor@acme.test');
    expect((await f.app.inject({ url, headers: auth(auditor) })).statusCode).toBe(200);
    const put = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(auditor),
      payload: { configurations: { copyAllowed: false } },
    });
    expect(put.statusCode).toBe(403);
  });

  it('answers 400 naming each unknown flag', async () => {
    const res = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(owner),
      payload: { configurations: { copyAllowed: 1, geoBlockMars: true } },
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['body.configurations.copyAllowed', 'body.configurations.geoBlockMars']);
  });

  it('has the defaults of spec §6, changes and logs them, and the web reads them with the features', async () => {
    // The fixture turns policy groups on for acme; without stored configurations it has the defaults.
    await f.database.db.execute(
      sql`update tenant_features set configurations = '{}'::jsonb where tenant_id = ${f.acme.id}`,
    );
    const first = await f.app.inject({ url, headers: auth(owner) });
    expect(first.json()).toEqual({
      configurations: {
        copyAllowed: true,
        ieDisabled: true,
        webCategoryEnabled: true,
        policyGroups: false,
      },
      updatedAt: null,
    });
    const res = await f.app.inject({
      method: 'PUT',
      url,
      headers: auth(owner),
      payload: { configurations: { policyGroups: true } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().configurations).toMatchObject({ policyGroups: true, copyAllowed: true });
    const [event] = await events('acme', 'tenant.configurations.update');
    expect(event).toMatchObject({
      actor_name: 'admin@acme.test',
      before: { policyGroups: false },
      after: { policyGroups: true },
    });
    const flags = await f.app.inject({ url: '/api/tenant/acme/flags', headers: auth(owner) });
    expect(flags.statusCode).toBe(200);
    expect(flags.json()).toMatchObject({ tenant: 'acme', configurations: { policyGroups: true } });
    expect(flags.json().features).toContain('webFilter');
    // The partner reads the flags of the tenant it works in; a stranger's tenant is not found.
    expect(
      (await f.app.inject({ url: '/api/tenant/acme/flags', headers: auth(partner) })).json().tenant,
    ).toBe('acme');
    expect((await f.app.inject({ url: '/api/tenant/globex/flags', headers: auth(partner) })).statusCode).toBe(
      404,
    );
  });

  it('refuses the copy endpoints while copyAllowed is off, and copies again once it is on', async () => {
    const setCopy = (copyAllowed: boolean) =>
      f.app.inject({
        method: 'PUT',
        url,
        headers: auth(owner),
        payload: { configurations: { copyAllowed } },
      });
    const copy = () =>
      f.app.inject({
        method: 'POST',
        url: `/api/groups/acme/${f.acme.groupIds[0]}/copy`,
        headers: auth(owner),
        payload: { name: `Copy ${Date.now()}`, withMembers: false },
      });
    expect((await setCopy(false)).statusCode).toBe(200);
    const off = await copy();
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({ errcode: 26, code: 'feature_disabled' });
    expect((await setCopy(true)).statusCode).toBe(200);
    expect((await copy()).statusCode).toBe(201);
  });
});
