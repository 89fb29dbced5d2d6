import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { auth, detailPaths, eventsOf, expectGuards, signInAll, type Tokens } from './test-support';

const f = useFixture();
let t: Tokens;

beforeAll(async () => {
  t = await signInAll(f);
});

const URL = '/api/policy/apps/acme';
const BLOCKED_URL = '/api/policy/blocked-apps/acme';

interface AppBody {
  appid: string;
  appname: string;
  domains: string[];
  ips: string[];
  custom: boolean;
  blocked: boolean;
  usedBy: number;
}

async function createApp(body: Record<string, unknown>, token = t.owner, url = URL) {
  return f.app.inject({ method: 'POST', url, headers: auth(token), payload: body });
}

async function listApps(query = '', token = t.owner): Promise<AppBody[]> {
  return (await f.app.inject({ url: `${URL}${query}`, headers: auth(token) })).json();
}

describe('apps API', () => {
  describe('GET policy/apps/{tenant}', () => {
    it('covers 401, 403, 404 and 400', async () => {
      await expectGuards(f, t, { method: 'GET', url: URL, forbidden: 'helpdesk' });
      const bad = await f.app.inject({ url: `${URL}?letter=ab&custom=maybe`, headers: auth(t.owner) });
      expect(bad.statusCode).toBe(400);
      expect(detailPaths(bad.json()).sort()).toEqual(['query.custom', 'query.letter']);
    });

    it('lists the catalog alphabetically with real domains, and filters by text, letter and custom', async () => {
      const all = await listApps('', t.auditor);
      expect(all.length).toBeGreaterThanOrEqual(80);
      const names = all.map((a) => a.appname.toLowerCase());
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
      expect(all.find((a) => a.appid === 'slack')).toMatchObject({
        appname: 'Slack',
        custom: false,
        blocked: false,
        domains: expect.arrayContaining(['slack.com', 'slack-edge.com', 'slack-imgs.com']),
      });
      expect(all.find((a) => a.appid === 'zoom')?.domains).toEqual(
        expect.arrayContaining(['zoom.us', 'zoom.com', 'zoomgov.com']),
      );
      for (const appid of [
        'microsoft-teams',
        'google-drive',
        'dropbox',
        'github',
        'salesforce',
        'chatgpt',
        'claude',
        'facebook',
        'tiktok',
        'netflix',
        'youtube',
      ]) {
        expect(all.map((a) => a.appid)).toContain(appid);
      }
      await createApp({ appname: '1Password Vault', domains: ['vault.example.com'] });
      const search = await listApps('?q=SLACK-EDGE');
      expect(search.map((a) => a.appid)).toEqual(['slack']);
      const letterZ = await listApps('?letter=Z');
      expect(letterZ.length).toBeGreaterThan(0);
      expect(letterZ.every((a) => a.appname.toUpperCase().startsWith('Z'))).toBe(true);
      const digits = await listApps('?letter=%23');
      expect(digits.map((a) => a.appname)).toEqual(['1Password Vault']);
      const custom = await listApps('?custom=true');
      expect(custom.map((a) => a.appname)).toEqual(['1Password Vault']);
      expect((await listApps('?custom=false')).every((a) => !a.custom)).toBe(true);
    });
  });

  describe('POST policy/apps/{tenant}', () => {
    it('covers 401, 403, 404 without writing', async () => {
      await expectGuards(f, t, {
        method: 'POST',
        url: URL,
        payload: { appname: 'Guarded app' },
        forbidden: 'auditor',
      });
      expect((await listApps('?q=guarded')).length).toBe(0);
    });

    it('enforces 64 domains and 8 IPs, valid entries and no repeats', async () => {
      const domains = Array.from({ length: 65 }, (_, i) => `host${i}.example.com`);
      const ips = Array.from({ length: 9 }, (_, i) => `192.0.2.${i + 1}`);
      const tooMany = await createApp({ appname: 'Too big', domains, ips });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().details).toEqual(
        expect.arrayContaining([
          { path: 'body.domains', message: 'validation.maxDomains' },
          { path: 'body.ips', message: 'validation.maxAppIps' },
        ]),
      );
      const atLimit = await createApp({
        appname: 'At the limit',
        domains: domains.slice(0, 64),
        ips: ips.slice(0, 8),
      });
      expect(atLimit.statusCode).toBe(201);
      expect(atLimit.json().domains).toHaveLength(64);
      const bad = await createApp({
        appname: 'Bad entries',
        domains: ['Example.com', 'not a domain', 'https://example.com/'],
        ips: ['300.1.1.1', '10.0.0.0/8', '10.0.0.0/8'],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual(
        expect.arrayContaining([
          { path: 'body.domains.1', message: 'validation.domain' },
          { path: 'body.domains.2', message: 'validation.duplicate' },
          { path: 'body.ips.0', message: 'validation.ipOrCidr' },
          { path: 'body.ips.2', message: 'validation.duplicate' },
        ]),
      );
      expect((await listApps('?q=bad entries')).length).toBe(0);
    });

    it('creates custom-<slug> ids, normalises domains, logs, and refuses taken names (409)', async () => {
      const res = await createApp({
        appname: 'Acme CRM (EU)',
        category: 'crm',
        domains: ['HTTPS://CRM.Acme-Corp.example/', 'static.acme-corp.example'],
        ips: ['198.51.100.10'],
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        appid: 'custom-acme-crm-eu',
        appname: 'Acme CRM (EU)',
        category: 'crm',
        domains: ['crm.acme-corp.example', 'static.acme-corp.example'],
        ips: ['198.51.100.10'],
        custom: true,
        blocked: false,
        usedBy: 0,
      });
      const [event] = (await eventsOf(f, 'policy.app.create')).filter(
        (e) => e.objectId === 'custom-acme-crm-eu',
      );
      expect(event).toMatchObject({ objectType: 'app', objectName: 'Acme CRM (EU)' });
      // Another name with the same slug gets its own id.
      const sibling = await createApp({ appname: 'Acme CRM EU' });
      expect(sibling.json()).toMatchObject({
        appid: 'custom-acme-crm-eu-2',
        category: 'custom',
        domains: [],
        ips: [],
      });
      const taken = await createApp({ appname: 'acme crm (eu)' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().details).toEqual([{ path: 'body.appname', message: 'validation.nameTaken' }]);
      const catalogName = await createApp({ appname: 'slack' });
      expect(catalogName.statusCode).toBe(409);
    });
  });

  describe('PUT policy/apps/{tenant}/{appid}', () => {
    it('covers 401, 403, 404, 400 (catalog app, bad input) and updates with before/after', async () => {
      const app = (await createApp({ appname: 'Intranet', domains: ['intranet.example.com'] })).json();
      const url = `${URL}/${app.appid}`;
      const payload = { appname: 'Intranet portal', domains: ['portal.example.com'], ips: ['10.1.2.3'] };
      await expectGuards(f, t, { method: 'PUT', url, payload, forbidden: 'auditor' });
      const globexApp = (
        await createApp({ appname: 'Globex tool' }, t.globexOwner, '/api/policy/apps/globex')
      ).json();
      const cross = await f.app.inject({
        method: 'PUT',
        url: `${URL}/${globexApp.appid}`,
        headers: auth(t.owner),
        payload,
      });
      expect(cross.statusCode).toBe(404);
      const catalog = await f.app.inject({
        method: 'PUT',
        url: `${URL}/slack`,
        headers: auth(t.owner),
        payload,
      });
      expect(catalog.statusCode).toBe(400);
      expect(catalog.json().details).toEqual([
        { path: 'params.appid', message: 'policy.validation.catalogApp' },
      ]);
      const bad = await f.app.inject({
        method: 'PUT',
        url,
        headers: auth(t.owner),
        payload: { appname: '', ips: ['x'] },
      });
      expect(detailPaths(bad.json()).sort()).toEqual(['body.appname', 'body.ips.0']);

      const ok = await f.app.inject({ method: 'PUT', url, headers: auth(t.owner), payload });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ appid: app.appid, ...payload, custom: true });
      const [event] = (await eventsOf(f, 'policy.app.update')).filter((e) => e.objectId === app.appid);
      expect(event.before).toMatchObject({ appname: 'Intranet', domains: ['intranet.example.com'] });
      expect(event.after).toMatchObject({ appname: 'Intranet portal', domains: ['portal.example.com'] });
    });
  });

  describe('DELETE policy/apps/{tenant}', () => {
    it('covers 401, 403, 404 and 400 (catalog apps cannot be deleted)', async () => {
      await expectGuards(f, t, {
        method: 'DELETE',
        url: URL,
        payload: { appids: ['custom-x'] },
        forbidden: 'auditor',
      });
      const catalog = await f.app.inject({
        method: 'DELETE',
        url: URL,
        headers: auth(t.owner),
        payload: { appids: ['custom-x', 'zoom'] },
      });
      expect(catalog.statusCode).toBe(400);
      expect(catalog.json().details).toEqual([
        { path: 'body.appids.1', message: 'policy.validation.catalogApp' },
      ]);
      const empty = await f.app.inject({
        method: 'DELETE',
        url: URL,
        headers: auth(t.owner),
        payload: { appids: [] },
      });
      expect(empty.statusCode).toBe(400);
    });

    it('removes the app from rules (a rule left with no app is deleted) and from the blocked list', async () => {
      const app = (await createApp({ appname: 'Shadow IT', domains: ['shadow.example.com'] })).json();
      const policy = await f.app.inject({
        method: 'POST',
        url: '/api/policy/acme',
        headers: auth(t.owner),
        payload: {
          type: 'other',
          name: 'App rules',
          rules: [
            { name: 'Block both', type: 'app', action: 'block', url: `${app.appid};zoom` },
            { name: 'Block shadow', type: 'app', action: 'block', url: app.appid },
          ],
        },
      });
      expect(policy.statusCode).toBe(201);
      const policyId = policy.json().policy.id;
      await f.app.inject({
        method: 'PUT',
        url: BLOCKED_URL,
        headers: auth(t.owner),
        payload: { appids: [app.appid, 'tiktok'] },
      });
      expect((await listApps(`?q=shadow`))[0]).toMatchObject({ usedBy: 2, blocked: true });

      const res = await f.app.inject({
        method: 'DELETE',
        url: URL,
        headers: auth(t.owner),
        payload: { appids: [app.appid, 'custom-unknown'] },
      });
      expect(res.json()).toEqual({ deleted: 1 });
      const rules = (
        await f.app.inject({ url: `/api/policy/acme/${policyId}`, headers: auth(t.owner) })
      ).json().rules;
      expect(rules.map((r: { name: string; url: string }) => [r.name, r.url])).toEqual([
        ['Block both', 'zoom'],
      ]);
      const blocked = (await f.app.inject({ url: BLOCKED_URL, headers: auth(t.owner) })).json();
      expect(blocked.map((a: AppBody) => a.appid)).toEqual(['tiktok']);
      const [event] = (await eventsOf(f, 'policy.app.delete')).filter((e) => e.objectId === app.appid);
      expect(event.before).toMatchObject({ appname: 'Shadow IT', usedBy: 2, blocked: true });
    });
  });
});

describe('blocked apps API', () => {
  it('GET covers 401, 403, 404 and lists the blocked apps', async () => {
    await expectGuards(f, t, { method: 'GET', url: BLOCKED_URL, forbidden: 'helpdesk' });
    const res = await f.app.inject({ url: BLOCKED_URL, headers: auth(t.auditor) });
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
  });

  it('PUT covers 401, 403, 404 and 400 for unknown apps, then sets the list and logs before/after', async () => {
    await expectGuards(f, t, {
      method: 'PUT',
      url: BLOCKED_URL,
      payload: { appids: ['tiktok'] },
      forbidden: 'auditor',
    });
    const globexApp = (
      await createApp({ appname: 'Globex secret' }, t.globexOwner, '/api/policy/apps/globex')
    ).json();
    const unknown = await f.app.inject({
      method: 'PUT',
      url: BLOCKED_URL,
      headers: auth(t.owner),
      payload: { appids: ['tiktok', 'no-such-app', globexApp.appid] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([
      { path: 'body.appids.1', message: 'policy.validation.unknownApp' },
      { path: 'body.appids.2', message: 'policy.validation.unknownApp' },
    ]);
    const malformed = await f.app.inject({
      method: 'PUT',
      url: BLOCKED_URL,
      headers: auth(t.owner),
      payload: { appids: [''] },
    });
    expect(detailPaths(malformed.json())).toEqual(['body.appids.0']);

    const before = (await f.app.inject({ url: BLOCKED_URL, headers: auth(t.owner) }))
      .json()
      .map((a: AppBody) => a.appid);
    const res = await f.app.inject({
      method: 'PUT',
      url: BLOCKED_URL,
      headers: auth(t.owner),
      payload: { appids: ['netflix', 'tiktok', 'netflix'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((a: AppBody) => [a.appid, a.blocked])).toEqual([
      ['netflix', true],
      ['tiktok', true],
    ]);
    expect((await listApps('?q=netflix'))[0].blocked).toBe(true);
    const events = await eventsOf(f, 'policy.blockedApps.update');
    const event = events.find((e) => (e.after as { appids: string[] }).appids.join() === 'netflix,tiktok');
    expect(event?.before).toEqual({ appids: before });
  });

  it('refuses a change that breaks a policy test (409) and keeps the list', async () => {
    await f.app.inject({ method: 'PUT', url: BLOCKED_URL, headers: auth(t.owner), payload: { appids: [] } });
    const pinned = await f.app.inject({
      method: 'POST',
      url: '/api/policy/tests/acme',
      headers: auth(t.owner),
      payload: {
        name: 'Slack stays reachable',
        request: { destination: 'https://app.slack.com/client' },
        expect: 'allow',
      },
    });
    expect(pinned.statusCode).toBe(201);
    const refused = await f.app.inject({
      method: 'PUT',
      url: BLOCKED_URL,
      headers: auth(t.owner),
      payload: { appids: ['slack'] },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'policy_tests_failed',
      failures: [{ name: 'Slack stays reachable', expect: 'allow', actual: 'block' }],
    });
    expect((await f.app.inject({ url: BLOCKED_URL, headers: auth(t.owner) })).json()).toEqual([]);
    await f.app.inject({
      method: 'DELETE',
      url: '/api/policy/tests/acme',
      headers: auth(t.owner),
      payload: { ids: [pinned.json().id] },
    });
  });
});
