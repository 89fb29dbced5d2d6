import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { SHIPPED_CATEGORIES } from './data/categories';
import {
  auth,
  detailPaths,
  eventsOf,
  expectGuards,
  signInAll,
  type Tokens,
  UNKNOWN_ID,
} from './test-support';

const f = useFixture();
let t: Tokens;

beforeAll(async () => {
  t = await signInAll(f);
});

const URL = '/api/policy/categories/acme';

interface CategoryBody {
  id: string;
  name: string;
  class: string;
  domainCount: number;
  domains: string[];
  action: string;
  usedBy: number;
}

async function listCategories(token = t.owner): Promise<CategoryBody[]> {
  return (await f.app.inject({ url: URL, headers: auth(token) })).json();
}

async function createCategory(body: Record<string, unknown>, token = t.owner, url = URL) {
  return f.app.inject({ method: 'POST', url, headers: auth(token), payload: body });
}

async function setAction(id: string, action: string, token = t.owner) {
  return f.app.inject({
    method: 'PUT',
    url: `${URL}/${id}/action`,
    headers: auth(token),
    payload: { action },
  });
}

describe('shipped category data', () => {
  it('has real content classes and only test entries in the security classes', () => {
    for (const category of SHIPPED_CATEGORIES) {
      if (category.class === 'content') expect(category.domains.length).toBeGreaterThanOrEqual(15);
      else for (const domain of category.domains) expect(domain).toMatch(/(\.testcategory\.com|\.test)$/);
      expect(new Set(category.domains).size).toBe(category.domains.length);
    }
  });
});

describe('categories API', () => {
  describe('GET policy/categories/{tenant}', () => {
    it('covers 401, 403 and 404', async () => {
      await expectGuards(f, t, { method: 'GET', url: URL, forbidden: 'helpdesk' });
    });

    it('lists shipped categories with examples, the action and none by default', async () => {
      const list = await listCategories(t.auditor);
      const gambling = list.find((c) => c.id === 'gambling')!;
      expect(gambling).toMatchObject({ name: 'Gambling', class: 'content', action: 'none', usedBy: 0 });
      expect(gambling.domainCount).toBeGreaterThan(gambling.domains.length);
      expect(gambling.domains).toHaveLength(10);
      expect(list.find((c) => c.id === 'malware')).toMatchObject({
        class: 'security',
        domains: expect.arrayContaining(['malware.testcategory.com']),
      });
      expect(list.find((c) => c.id === 'newly-registered')).toMatchObject({ domainCount: 0, domains: [] });
    });
  });

  describe('PUT policy/categories/{tenant}/{id}/action', () => {
    it('covers 401, 403, 404 (other tenant, unknown category) and 400', async () => {
      await expectGuards(f, t, {
        method: 'PUT',
        url: `${URL}/gambling/action`,
        payload: { action: 'block' },
        forbidden: 'auditor',
      });
      expect((await setAction('no-such-category', 'block')).statusCode).toBe(404);
      expect((await setAction(UNKNOWN_ID, 'block')).statusCode).toBe(404);
      const globexCategory = (
        await createCategory(
          { name: 'Globex list', domains: ['globex.example'] },
          t.globexOwner,
          '/api/policy/categories/globex',
        )
      ).json();
      expect((await setAction(globexCategory.id, 'block')).statusCode).toBe(404);
      const bad = await setAction('gambling', 'deny');
      expect(bad.statusCode).toBe(400);
      expect(detailPaths(bad.json())).toEqual(['body.action']);
    });

    it('sets and clears the action, which decides the simulation, and logs before/after', async () => {
      const res = await setAction('gambling', 'block');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: 'gambling', action: 'block' });
      expect((await listCategories()).find((c) => c.id === 'gambling')?.action).toBe('block');
      const simulate = () =>
        f.app.inject({
          method: 'POST',
          url: '/api/policy/simulate/acme',
          headers: auth(t.owner),
          payload: { request: { destination: 'https://www.bet365.com/' } },
        });
      const blocked = (await simulate()).json();
      expect(blocked.decision).toBe('block');
      expect(blocked.rule).toMatchObject({ ruleId: 'system-category-gambling', system: true });
      const [event] = (await eventsOf(f, 'policy.category.action')).filter((e) => e.objectId === 'gambling');
      expect(event).toMatchObject({ before: { action: 'none' }, after: { action: 'block' } });

      expect((await setAction('gambling', 'none')).json().action).toBe('none');
      expect((await simulate()).json().decision).toBe('allow');
    });

    it('refuses an action that breaks a policy test (409) and keeps the old one', async () => {
      const pinned = await f.app.inject({
        method: 'POST',
        url: '/api/policy/tests/acme',
        headers: auth(t.owner),
        payload: {
          name: 'News readable',
          request: { destination: 'https://www.bbc.co.uk/news' },
          expect: 'allow',
        },
      });
      expect(pinned.statusCode).toBe(201);
      const refused = await setAction('news', 'block');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().failures).toEqual([
        expect.objectContaining({ name: 'News readable', actual: 'block' }),
      ]);
      expect((await listCategories()).find((c) => c.id === 'news')?.action).toBe('none');
      await f.app.inject({
        method: 'DELETE',
        url: '/api/policy/tests/acme',
        headers: auth(t.owner),
        payload: { ids: [pinned.json().id] },
      });
    });
  });

  describe('POST policy/categories/{tenant}', () => {
    it('covers 401, 403, 404 and 400 without writing', async () => {
      await expectGuards(f, t, {
        method: 'POST',
        url: URL,
        payload: { name: 'Guarded', domains: ['a.example'] },
        forbidden: 'auditor',
      });
      const bad = await createCategory({ name: '', domains: ['ok.example', 'bad domain', 'OK.example'] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual(
        expect.arrayContaining([
          { path: 'body.name', message: 'validation.required' },
          { path: 'body.domains.1', message: 'validation.domain' },
          { path: 'body.domains.2', message: 'validation.duplicate' },
        ]),
      );
      const none = await createCategory({ name: 'Nothing', domains: [] });
      expect(none.json().details).toEqual([{ path: 'body.domains', message: 'validation.required' }]);
      expect((await listCategories()).map((c) => c.name)).not.toContain('Guarded');
    });

    it('creates a custom category listing all its domains, and refuses shipped or taken names (409)', async () => {
      const res = await createCategory({
        name: 'Partner portals',
        description: 'Suppliers',
        domains: ['https://Portal.Supplier.example/', 'orders.vendor.example'],
      });
      expect(res.statusCode).toBe(201);
      const category = res.json();
      expect(category).toMatchObject({
        name: 'Partner portals',
        class: 'custom',
        domainCount: 2,
        domains: ['portal.supplier.example', 'orders.vendor.example'],
        action: 'none',
      });
      expect((await eventsOf(f, 'policy.category.create')).map((e) => e.objectId)).toContain(category.id);
      expect((await createCategory({ name: 'partner PORTALS', domains: ['x.example'] })).statusCode).toBe(
        409,
      );
      const shipped = await createCategory({ name: 'Gambling', domains: ['x.example'] });
      expect(shipped.statusCode).toBe(409);
      expect(shipped.json().details).toEqual([{ path: 'body.name', message: 'validation.nameTaken' }]);
    });
  });

  describe('PUT policy/categories/{tenant}/{id}', () => {
    it('covers 401, 403, 404 (shipped, other tenant, unknown), 400 and updates with before/after', async () => {
      const category = (await createCategory({ name: 'Editable', domains: ['edit.example'] })).json();
      const url = `${URL}/${category.id}`;
      const payload = { name: 'Edited', domains: ['edited.example', 'more.example'] };
      await expectGuards(f, t, { method: 'PUT', url, payload, forbidden: 'auditor' });
      const shipped = await f.app.inject({
        method: 'PUT',
        url: `${URL}/gambling`,
        headers: auth(t.owner),
        payload,
      });
      expect(shipped.statusCode).toBe(400);
      expect(detailPaths(shipped.json())).toEqual(['params.id']);
      expect(
        (await f.app.inject({ method: 'PUT', url: `${URL}/${UNKNOWN_ID}`, headers: auth(t.owner), payload }))
          .statusCode,
      ).toBe(404);
      const bad = await f.app.inject({
        method: 'PUT',
        url,
        headers: auth(t.owner),
        payload: { name: 'x', domains: ['-x.example'] },
      });
      expect(bad.json().details).toEqual([{ path: 'body.domains.0', message: 'validation.domain' }]);
      const ok = await f.app.inject({ method: 'PUT', url, headers: auth(t.owner), payload });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ id: category.id, name: 'Edited', domainCount: 2 });
      const [event] = (await eventsOf(f, 'policy.category.update')).filter((e) => e.objectId === category.id);
      expect(event.before).toMatchObject({ name: 'Editable', domains: ['edit.example'] });
      expect(event.after).toMatchObject({ name: 'Edited', domains: ['edited.example', 'more.example'] });
    });
  });

  describe('DELETE policy/categories/{tenant}', () => {
    it('covers 401, 403, 404 and 400', async () => {
      await expectGuards(f, t, {
        method: 'DELETE',
        url: URL,
        payload: { ids: [UNKNOWN_ID] },
        forbidden: 'auditor',
      });
      const bad = await f.app.inject({
        method: 'DELETE',
        url: URL,
        headers: auth(t.owner),
        payload: { ids: ['gambling'] },
      });
      expect(bad.statusCode).toBe(400);
    });

    it('removes the category from rules, deletes a rule left with nothing, and drops its action', async () => {
      const category = (await createCategory({ name: 'Doomed', domains: ['doomed.example'] })).json();
      expect((await setAction(category.id, 'block')).statusCode).toBe(200);
      const policy = await f.app.inject({
        method: 'POST',
        url: '/api/policy/acme',
        headers: auth(t.owner),
        payload: {
          type: 'other',
          name: 'Category rules',
          rules: [
            { name: 'Only doomed', type: 'dmn', action: 'block', categories: [category.id] },
            { name: 'Doomed and games', type: 'dmn', action: 'block', categories: [category.id, 'games'] },
          ],
        },
      });
      expect(policy.statusCode).toBe(201);
      expect((await listCategories()).find((c) => c.id === category.id)?.usedBy).toBe(2);
      const res = await f.app.inject({
        method: 'DELETE',
        url: URL,
        headers: auth(t.owner),
        payload: { ids: [category.id] },
      });
      expect(res.json()).toEqual({ deleted: 1 });
      const rules = (
        await f.app.inject({ url: `/api/policy/acme/${policy.json().policy.id}`, headers: auth(t.owner) })
      ).json().rules;
      expect(rules.map((r: { name: string; categories: string[] }) => [r.name, r.categories])).toEqual([
        ['Doomed and games', ['games']],
      ]);
      expect((await listCategories()).map((c) => c.id)).not.toContain(category.id);
      expect((await eventsOf(f, 'policy.category.delete')).map((e) => e.objectId)).toContain(category.id);
    });
  });

  describe('GET policy/categories/{tenant}/lookup', () => {
    it('covers 401, 403, 404 and 400', async () => {
      await expectGuards(f, t, {
        method: 'GET',
        url: `${URL}/lookup?domain=slack.com`,
        forbidden: 'helpdesk',
      });
      const bad = await f.app.inject({ url: `${URL}/lookup?domain=not_a_domain`, headers: auth(t.owner) });
      expect(bad.statusCode).toBe(400);
      expect(detailPaths(bad.json())).toEqual(['query.domain']);
    });

    it('finds categories by label suffix with the matched entry, and the apps of the domain', async () => {
      await createCategory({ name: 'Chat tools', domains: ['files.slack.com'] });
      const res = await f.app.inject({
        url: `${URL}/lookup?domain=https://Downloads.Files.Slack.com/`,
        headers: auth(t.auditor),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        domain: 'downloads.files.slack.com',
        categories: [
          { id: 'collaboration', name: 'Collaboration', matched: 'slack.com' },
          { id: expect.any(String), name: 'Chat tools', matched: 'files.slack.com' },
        ],
        apps: [{ appid: 'slack', appname: 'Slack' }],
      });
      const notSuffix = (
        await f.app.inject({ url: `${URL}/lookup?domain=notslack.com`, headers: auth(t.owner) })
      ).json();
      expect(notSuffix).toEqual({ domain: 'notslack.com', categories: [], apps: [] });
      const test = (
        await f.app.inject({ url: `${URL}/lookup?domain=phishing.testcategory.com`, headers: auth(t.owner) })
      ).json();
      expect(test.categories).toEqual([
        { id: 'phishing', name: 'Phishing', matched: 'phishing.testcategory.com' },
      ]);
    });
  });
});
