import { DEFAULT_GEO_RULE_NAME } from '@palisade/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { lookupCountry } from '../policy-core/geoip';
import { loadPolicyObjects } from './policy-objects.engine-source';
import { auth, detailPaths, eventsOf, expectGuards, signInAll, type Tokens } from './test-support';

const f = useFixture();
let t: Tokens;

beforeAll(async () => {
  t = await signInAll(f);
});

const GEO_URL = '/api/policy/geo/acme';

async function simulate(destination: string, extra: Record<string, unknown> = {}) {
  const res = await f.app.inject({
    method: 'POST',
    url: '/api/policy/simulate/acme',
    headers: auth(t.owner),
    payload: { request: { destination, ...extra } },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    decision: string;
    rule: { policyId: string; ruleId: string; ruleName: string } | null;
  };
}

describe('GeoIP database', () => {
  it('knows well-known addresses and nothing of private ones', () => {
    expect(lookupCountry('8.8.8.8')).toBe('US'); // Google Public DNS
    expect(lookupCountry('193.99.144.80')).toBe('DE'); // heise.de
    expect(lookupCountry('175.45.176.1')).toBe('KP'); // Star JV, Pyongyang
    expect(lookupCountry('10.1.2.3')).toBeNull();
    // The database has stray records for these special-purpose ranges; no country owns them.
    expect(lookupCountry('192.168.1.1')).toBeNull();
    expect(lookupCountry('172.16.5.5')).toBeNull();
    expect(lookupCountry('203.0.113.5')).toBeNull();
    expect(lookupCountry('not an ip')).toBeNull();
  });
});

describe('geo controls API', () => {
  it('GET covers 401, 403, 404 and lists countries with names and the database', async () => {
    await expectGuards(f, t, { method: 'GET', url: GEO_URL, forbidden: 'helpdesk' });
    const res = await f.app.inject({ url: GEO_URL, headers: auth(t.auditor) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.blocked).toEqual([]);
    expect(body.countries).toEqual(
      expect.arrayContaining([
        { code: 'DE', name: 'Germany' },
        { code: 'KP', name: 'North Korea' },
        { code: 'US', name: 'United States' },
      ]),
    );
    expect(body.countries.length).toBeGreaterThan(240);
    expect(body.database.name).toMatch(/geo-whois-asn-country/);
    expect(Date.parse(body.database.builtAt)).not.toBeNaN();
  });

  it('PUT covers 401, 403, 404 and 400 for codes that are no country, without changing anything', async () => {
    await expectGuards(f, t, {
      method: 'PUT',
      url: GEO_URL,
      payload: { blocked: ['KP'] },
      forbidden: 'auditor',
    });
    const bad = await f.app.inject({
      method: 'PUT',
      url: GEO_URL,
      headers: auth(t.owner),
      payload: { blocked: ['KP', 'X1', 'kp'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual(
      expect.arrayContaining([
        { path: 'body.blocked.1', message: 'validation.country' },
        { path: 'body.blocked.2', message: 'validation.duplicate' },
      ]),
    );
    const unknown = await f.app.inject({
      method: 'PUT',
      url: GEO_URL,
      headers: auth(t.owner),
      payload: { blocked: ['ZZ'] },
    });
    expect(unknown.json().details).toEqual([{ path: 'body.blocked.0', message: 'validation.country' }]);
    expect((await f.app.inject({ url: GEO_URL, headers: auth(t.owner) })).json().blocked).toEqual([]);
  });

  it('PUT blocks countries (decided by the system geo rule) and logs before/after', async () => {
    const res = await f.app.inject({
      method: 'PUT',
      url: GEO_URL,
      headers: auth(t.owner),
      payload: { blocked: ['ru', 'KP'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().blocked).toEqual(['KP', 'RU']);
    const [event] = await eventsOf(f, 'policy.geo.update');
    expect(event).toMatchObject({ before: { blocked: [] }, after: { blocked: ['KP', 'RU'] } });
    const kp = await simulate('175.45.176.1');
    expect(kp.decision).toBe('block');
    expect(kp.rule).toMatchObject({ policyId: 'system-geo', ruleId: 'system-geo-block' });
    const us = await simulate('8.8.8.8');
    expect(us.decision).toBe('allow');
  });

  it("a blocked country is blocked before a tenant's own allow or route rule accepts the traffic", async () => {
    const before = (await f.app.inject({ url: GEO_URL, headers: auth(t.owner) })).json().blocked;
    await f.app.inject({ method: 'PUT', url: GEO_URL, headers: auth(t.owner), payload: { blocked: ['KP'] } });
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/policy/acme',
      headers: auth(t.owner),
      payload: {
        type: 'other',
        name: 'Allow all the internet',
        rules: [{ name: 'Everything', type: 'ROUTE', action: 'allow', url: '0.0.0.0/0' }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const kp = await simulate('175.45.176.1:443');
    expect(kp).toMatchObject({
      decision: 'block',
      rule: { policyId: 'system-geo', ruleId: 'system-geo-block' },
    });
    // Elsewhere the tenant's rule decides.
    const us = await simulate('8.8.8.8:443');
    expect(us).toMatchObject({ decision: 'allow', rule: { policyId: res.json().policy.id } });
    await f.app.inject({
      method: 'DELETE',
      url: `/api/policy/acme/${res.json().policy.id}`,
      headers: auth(t.owner),
    });
    await f.app.inject({ method: 'PUT', url: GEO_URL, headers: auth(t.owner), payload: { blocked: before } });
  });

  it('GET lookup covers 401, 403, 404, 400 and answers the country of an address', async () => {
    await expectGuards(f, t, { method: 'GET', url: `${GEO_URL}/lookup?ip=8.8.8.8`, forbidden: 'helpdesk' });
    const bad = await f.app.inject({ url: `${GEO_URL}/lookup?ip=999.1.1.1`, headers: auth(t.owner) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'query.ip', message: 'validation.ip' }]);
    const missing = await f.app.inject({ url: `${GEO_URL}/lookup`, headers: auth(t.owner) });
    expect(detailPaths(missing.json())).toEqual(['query.ip']);
    const us = await f.app.inject({ url: `${GEO_URL}/lookup?ip=8.8.8.8`, headers: auth(t.auditor) });
    expect(us.json()).toEqual({ ip: '8.8.8.8', country: 'US' });
    const lan = await f.app.inject({ url: `${GEO_URL}/lookup?ip=192.168.1.1`, headers: auth(t.owner) });
    expect(lan.json()).toEqual({ ip: '192.168.1.1', country: null });
  });
});

describe('loadPolicyObjects', () => {
  it('derives the system policies from the tenant settings', async () => {
    const put = (url: string, payload: unknown) =>
      f.app.inject({
        method: 'PUT',
        url: `/api/policy/${url}`,
        headers: auth(t.owner),
        payload: payload as object,
      });
    expect((await put('blocked-apps/acme', { appids: ['tiktok', 'netflix'] })).statusCode).toBe(200);
    expect((await put('categories/acme/malware/action', { action: 'block' })).statusCode).toBe(200);
    expect((await put('categories/acme/news/action', { action: 'allow' })).statusCode).toBe(200);
    expect((await put('feeds/acme/builtin-bogons', { enabled: true })).statusCode).toBe(200);
    const location = (
      await f.app.inject({
        method: 'POST',
        url: '/api/policy/locations/acme',
        headers: auth(t.owner),
        payload: { name: 'Lab', networks: ['10.9.0.0/16'] },
      })
    ).json();

    const { objects, systemPolicies } = await f.database.tenantTx(f.acme.id, (tx) =>
      loadPolicyObjects(tx, f.acme.id),
    );
    expect(objects.locations).toEqual([{ id: location.id, name: 'Lab', networks: ['10.9.0.0/16'] }]);
    expect(objects.apps.find((a) => a.appid === 'slack')?.domains).toContain('slack.com');
    expect(objects.categories.find((c) => c.id === 'gambling')?.custom).toBeUndefined();
    expect(objects.feeds.find((feed) => feed.id === 'builtin-bogons')?.ips).toContain('240.0.0.0/4');

    const summary = systemPolicies.map((p) => ({
      id: p.id,
      name: p.name,
      precedence: p.precedence,
      system: p.system,
      appliesTo: p.appliesTo,
      type: p.type,
      rules: p.rules.map((r) => [r.id, r.name, r.type, r.action, r.url, r.categories, r.feeds, r.issysgen]),
    }));
    expect(summary).toEqual([
      {
        id: 'system-threat-intel',
        name: 'system:threatIntel',
        precedence: -2_000_000,
        system: true,
        appliesTo: null,
        type: 'other',
        rules: [
          [
            'system-threat-intel-builtin-test-indicators-domains',
            'Threat intel: Palisade test indicators',
            'dmn',
            'block',
            '',
            [],
            ['builtin-test-indicators'],
            true,
          ],
          [
            'system-threat-intel-builtin-test-indicators-ips',
            'IP rule: Palisade test indicators',
            'ROUTE',
            'block',
            '',
            [],
            ['builtin-test-indicators'],
            true,
          ],
          [
            'system-threat-intel-builtin-bogons-ips',
            'IP rule: Bogon networks',
            'ROUTE',
            'block',
            '',
            [],
            ['builtin-bogons'],
            true,
          ],
          ['system-category-malware', 'Category: Malware', 'dmn', 'block', '', ['malware'], [], true],
        ],
      },
      {
        id: 'system-blocked-apps',
        name: 'system:blockedApps',
        precedence: -1_000_000,
        system: true,
        appliesTo: null,
        type: 'other',
        rules: [['system-blocked-apps', 'Blocked apps', 'app', 'block', 'netflix;tiktok', [], [], true]],
      },
      {
        id: 'system-geo',
        name: 'system:geoControls',
        precedence: -500_000,
        system: true,
        appliesTo: null,
        type: 'other',
        rules: [['system-geo-block', 'Blocked countries', 'GEO', 'block', 'KP;RU', [], [], true]],
      },
      {
        id: 'system-web-categories',
        name: 'system:webCategories',
        precedence: 1_000_000_000,
        system: true,
        appliesTo: null,
        type: 'other',
        rules: [['system-category-news', 'Category: News', 'dmn', 'allow', '', ['news'], [], true]],
      },
      {
        id: 'system-default-geo',
        name: 'system:defaultGeo',
        precedence: 2_000_000_000,
        system: true,
        appliesTo: null,
        type: 'other',
        rules: [['system-default-geo', DEFAULT_GEO_RULE_NAME, 'GEO', 'allow', '*', [], [], true]],
      },
    ]);
  });

  it('blocks through the threat-intel rules, and a disabled feed neither blocks nor keeps its entries', async () => {
    const domain = await simulate('https://malware.testcategory.com/');
    expect(domain).toMatchObject({ decision: 'block', rule: { policyId: 'system-threat-intel' } });
    const ip = await simulate('198.51.100.20:443');
    expect(ip).toMatchObject({ decision: 'block', rule: { ruleName: 'IP rule: Palisade test indicators' } });
    const app = await simulate('https://www.tiktok.com/');
    expect(app).toMatchObject({ decision: 'block', rule: { ruleId: 'system-blocked-apps' } });

    const off = await f.app.inject({
      method: 'PUT',
      url: '/api/policy/feeds/acme/builtin-test-indicators',
      headers: auth(t.owner),
      payload: { enabled: false },
    });
    expect(off.statusCode).toBe(200);
    const { objects, systemPolicies } = await f.database.tenantTx(f.acme.id, (tx) =>
      loadPolicyObjects(tx, f.acme.id),
    );
    expect(objects.feeds.find((feed) => feed.id === 'builtin-test-indicators')).toMatchObject({
      ips: [],
      domains: [],
    });
    expect(systemPolicies[0].rules.map((r) => r.id)).not.toContain(
      'system-threat-intel-builtin-test-indicators-ips',
    );
    // The malware category (blocked) still catches the test domain; the documentation range now only
    // through the (enabled) bogon feed, which lists it too.
    expect((await simulate('https://malware.testcategory.com/')).rule).toMatchObject({
      ruleId: 'system-category-malware',
    });
    expect((await simulate('198.51.100.20:443')).rule).toMatchObject({ ruleName: 'IP rule: Bogon networks' });
    await f.app.inject({
      method: 'PUT',
      url: '/api/policy/feeds/acme/builtin-bogons',
      headers: auth(t.owner),
      payload: { enabled: false },
    });
    expect((await simulate('198.51.100.20:443')).decision).toBe('allow');
  });
});
