import dns from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_FEED_BYTES } from '@palisade/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useFixture } from '../../../test/helper';
import { setFeedPrivateNetworks } from './feeds';
import { refreshDueFeeds } from './feeds.service';
import { policyFeeds } from './policy-objects.tables';
import {
  auth,
  detailPaths,
  eventsOf,
  expectGuards,
  signInAll,
  type Tokens,
  UNKNOWN_ID,
} from './test-support';

// The feed server below listens on loopback, which feeds may only reach when private networks are allowed.
const f = useFixture({ feedAllowPrivateNetworks: true });
let t: Tokens;

/** A local feed server: paths answer what `pages` says (a missing page is 404). */
const pages = new Map<string, string>();
let server: Server;
let base: string;
/** How many requests the feed server has seen. */
let requests = 0;

beforeAll(async () => {
  t = await signInAll(f);
  server = createServer((req, res) => {
    requests += 1;
    if (req.url?.startsWith('/redirect?to=')) {
      res.writeHead(302, { location: decodeURIComponent(req.url.slice('/redirect?to='.length)) });
      res.end();
      return;
    }
    if (req.url === '/huge.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('a.example\n'.repeat(MAX_FEED_BYTES / 10 + 1));
      return;
    }
    const body = pages.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404, 'Not Found');
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

const URL = '/api/policy/feeds/acme';
const MALICIOUS_URL = '/api/policy/maliciousip/acme';

interface FeedBody {
  id: string;
  name: string;
  kind: string;
  url: string | null;
  fileName: string | null;
  refreshMinutes: number | null;
  enabled: boolean;
  ipCount: number;
  domainCount: number;
  lastRefreshedAt: string | null;
  lastError: string | null;
  usedBy: number;
}

async function listFeeds(token = t.owner, tenant = 'acme'): Promise<FeedBody[]> {
  return (await f.app.inject({ url: `/api/policy/feeds/${tenant}`, headers: auth(token) })).json();
}

async function upload(body: Record<string, unknown>, token = t.owner, url = `${URL}/upload`) {
  return f.app.inject({ method: 'POST', url, headers: auth(token), payload: body });
}

async function addUrlFeed(body: Record<string, unknown>, token = t.owner) {
  return f.app.inject({ method: 'POST', url: `${URL}/url`, headers: auth(token), payload: body });
}

async function updateFeed(id: string, body: Record<string, unknown>, token = t.owner) {
  return f.app.inject({ method: 'PUT', url: `${URL}/${id}`, headers: auth(token), payload: body });
}

describe('feeds API', () => {
  describe('GET policy/feeds/{tenant}', () => {
    it('covers 401, 403 and 404', async () => {
      await expectGuards(f, t, { method: 'GET', url: URL, forbidden: 'helpdesk' });
    });

    it('lists the built-in feeds with their counts and default state', async () => {
      const feeds = await listFeeds(t.auditor);
      expect(feeds.slice(0, 2)).toEqual([
        expect.objectContaining({
          id: 'builtin-test-indicators',
          kind: 'builtin',
          enabled: true,
          ipCount: 3,
          domainCount: 4,
        }),
        expect.objectContaining({
          id: 'builtin-bogons',
          name: 'Bogon networks',
          enabled: false,
          domainCount: 0,
        }),
      ]);
    });
  });

  describe('POST policy/feeds/{tenant}/upload', () => {
    it('covers 401, 403 and 404 without writing', async () => {
      await expectGuards(f, t, {
        method: 'POST',
        url: `${URL}/upload`,
        payload: { name: 'Guarded', fileName: 'g.txt', content: '192.0.2.1' },
        forbidden: 'auditor',
      });
      expect((await listFeeds()).map((feed) => feed.name)).not.toContain('Guarded');
    });

    it('reports every unreadable line by its number and saves nothing', async () => {
      const content = [
        '# blocklist',
        '192.0.2.10',
        'bad entry here',
        '',
        '10.0.0.0/33',
        'evil.example',
        'ok',
      ].join('\n');
      const res = await upload({ name: 'Broken list', fileName: 'broken.txt', content });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([
        { path: 'body.content.3', message: 'validation.feedLine' },
        { path: 'body.content.5', message: 'validation.feedLine' },
        { path: 'body.content.7', message: 'validation.feedLine' },
      ]);
      expect((await listFeeds()).map((feed) => feed.name)).not.toContain('Broken list');
      const wrongFile = await upload({ name: 'CSV', fileName: 'list.csv', content: '192.0.2.1' });
      expect(wrongFile.json().details).toEqual([{ path: 'body.fileName', message: 'validation.txtFile' }]);
      const empty = await upload({ name: 'Comments only', fileName: 'empty.txt', content: '# nothing\n\n' });
      expect(empty.json().details).toEqual([{ path: 'body.content', message: 'validation.feedEmpty' }]);
      const tooLarge = await upload({
        name: 'Huge',
        fileName: 'huge.txt',
        content: 'x'.repeat(MAX_FEED_BYTES + 1),
      });
      expect([400, 413]).toContain(tooLarge.statusCode);
      expect((await listFeeds()).map((feed) => feed.name)).not.toContain('Huge');
    });

    it('stores IPs, CIDRs and domains (hosts-file lines too), logs it, and refuses a taken name (409)', async () => {
      const content =
        '# my list\r\n198.51.100.7\r\n10.99.0.0/16 # lab\r\n0.0.0.0 Tracker.Example.com\r\nhttps://bad.example.net/\r\n';
      const res = await upload({ name: 'SOC list', fileName: 'soc.txt', content });
      expect(res.statusCode).toBe(201);
      const feed = res.json();
      expect(feed).toMatchObject({
        name: 'SOC list',
        kind: 'upload',
        fileName: 'soc.txt',
        url: null,
        enabled: true,
        ipCount: 2,
        domainCount: 2,
        lastError: null,
      });
      expect(feed.lastRefreshedAt).not.toBeNull();
      const [event] = (await eventsOf(f, 'policy.feed.create')).filter((e) => e.objectId === feed.id);
      expect(event).toMatchObject({ objectType: 'feed', objectName: 'SOC list' });
      expect((await upload({ name: 'soc LIST', fileName: 'a.txt', content: '192.0.2.1' })).statusCode).toBe(
        409,
      );
      const builtinName = await upload({ name: 'Bogon networks', fileName: 'a.txt', content: '192.0.2.1' });
      expect(builtinName.statusCode).toBe(409);
      expect(builtinName.json().details).toEqual([{ path: 'body.name', message: 'validation.nameTaken' }]);
    });
  });

  describe('POST policy/feeds/{tenant}/url', () => {
    it('covers 401, 403, 404 and 400', async () => {
      await expectGuards(f, t, {
        method: 'POST',
        url: `${URL}/url`,
        payload: { name: 'Guarded URL', url: `${base}/x.txt` },
        forbidden: 'auditor',
      });
      const bad = await addUrlFeed({ name: 'FTP', url: 'ftp://example.com/list.txt', refreshMinutes: 7 });
      expect(bad.statusCode).toBe(400);
      expect(detailPaths(bad.json()).sort()).toEqual(['body.refreshMinutes', 'body.url']);
      expect(bad.json().details).toEqual(
        expect.arrayContaining([{ path: 'body.url', message: 'validation.url' }]),
      );
    });

    it('fetches the feed now and stores its entries', async () => {
      pages.set('/threats.txt', '# threats\n203.0.113.50\n192.0.2.128/25\nmalware-drop.example\n');
      const res = await addUrlFeed({ name: 'Vendor feed', url: `${base}/threats.txt`, refreshMinutes: 60 });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        kind: 'url',
        url: `${base}/threats.txt`,
        refreshMinutes: 60,
        ipCount: 2,
        domainCount: 1,
        lastError: null,
      });
      expect(res.json().lastRefreshedAt).not.toBeNull();
    });

    it('follows redirects and refuses private or reserved addresses unless the configuration allows them', async () => {
      pages.set('/moved.txt', '203.0.113.61\n');
      const moved = await addUrlFeed({
        name: 'Moved feed',
        url: `${base}/redirect?to=${encodeURIComponent('/moved.txt')}`,
      });
      expect(moved.json()).toMatchObject({ ipCount: 1, lastError: null });

      setFeedPrivateNetworks(false);
      try {
        const loopback = await addUrlFeed({ name: 'Loopback feed', url: `${base}/moved.txt` });
        expect(loopback.statusCode).toBe(201);
        expect(loopback.json()).toMatchObject({
          ipCount: 0,
          lastError: 'The feed address 127.0.0.1 is in a private or reserved network',
        });
        const metadata = await addUrlFeed({ name: 'Metadata feed', url: 'http://169.254.169.254/latest' });
        expect(metadata.json().lastError).toBe(
          'The feed address 169.254.169.254 is in a private or reserved network',
        );
        // IPv6 written out: anything but global unicast, an IPv4-mapped address as its IPv4 address.
        for (const [url, address] of [
          ['http://[fd00::1]/x.txt', 'fd00::1'],
          ['http://[::ffff:127.0.0.1]/x.txt', '::ffff:7f00:1'],
          ['http://[2001:db8::1]/x.txt', '2001:db8::1'],
        ]) {
          const v6 = await addUrlFeed({ name: `Feed at ${address}`, url });
          expect(v6.json().lastError, url).toBe(
            `The feed address ${address} is in a private or reserved network`,
          );
        }
      } finally {
        setFeedPrivateNetworks(true);
      }
    });

    it('resolves a feed host once and connects to the very address it checked (no DNS-rebinding window)', async () => {
      pages.set('/pinned.txt', '203.0.113.62\n');
      const port = new globalThis.URL(base).port;
      const asked: string[] = [];
      let answer = '127.0.0.1';
      // A DNS that answers what the test says, and counts the questions.
      const lookup = vi.spyOn(dns, 'lookup').mockImplementation(((
        hostname: string,
        _options: unknown,
        callback: (error: Error | null, addresses: { address: string; family: number }[]) => void,
      ) => {
        asked.push(hostname);
        callback(null, [{ address: answer, family: 4 }]);
      }) as never);
      try {
        const pinned = await addUrlFeed({
          name: 'Pinned feed',
          url: `http://feeds.rebind.test:${port}/pinned.txt`,
        });
        // The name exists only in this stand-in DNS: the connection went to the address it answered.
        expect(pinned.json()).toMatchObject({ ipCount: 1, lastError: null });
        expect(asked).toEqual(['feeds.rebind.test']);

        setFeedPrivateNetworks(false);
        asked.length = 0;
        const before = requests;
        const refused = await addUrlFeed({
          name: 'Rebound feed',
          url: `http://feeds.rebind.test:${port}/pinned.txt`,
        });
        expect(refused.json()).toMatchObject({
          ipCount: 0,
          lastError: 'The feed address 127.0.0.1 is in a private or reserved network',
        });
        expect(asked).toEqual(['feeds.rebind.test']);
        expect(requests).toBe(before);
        answer = '10.1.2.3';
        const internal = await addUrlFeed({
          name: 'Internal feed',
          url: `http://feeds.rebind.test:${port}/x.txt`,
        });
        expect(internal.json().lastError).toBe(
          'The feed address 10.1.2.3 is in a private or reserved network',
        );
      } finally {
        setFeedPrivateNetworks(true);
        lookup.mockRestore();
      }
    });

    it('keeps a feed whose fetch failed, with the error, and names skipped lines of a partly readable one', async () => {
      const missing = await addUrlFeed({ name: 'Gone feed', url: `${base}/missing.txt` });
      expect(missing.statusCode).toBe(201);
      expect(missing.json()).toMatchObject({
        ipCount: 0,
        domainCount: 0,
        lastRefreshedAt: null,
        lastError: 'HTTP 404 Not Found',
      });
      const huge = await addUrlFeed({ name: 'Huge feed', url: `${base}/huge.txt` });
      expect(huge.json().lastError).toBe('Larger than 5 MB');
      pages.set('/partial.txt', '192.0.2.77\nnot valid!\nok.example.org\n');
      const partial = await addUrlFeed({ name: 'Partial feed', url: `${base}/partial.txt` });
      expect(partial.json()).toMatchObject({
        ipCount: 1,
        domainCount: 1,
        lastError: 'Skipped unreadable lines: 2',
      });
      expect((await listFeeds()).find((feed) => feed.name === 'Gone feed')?.lastError).toBe(
        'HTTP 404 Not Found',
      );
    });
  });

  describe('PUT policy/feeds/{tenant}/{id}', () => {
    it('covers 401, 403, 404 (unknown, other tenant) and 400 (built-in rename, schedule of a non-URL feed)', async () => {
      await expectGuards(f, t, {
        method: 'PUT',
        url: `${URL}/builtin-bogons`,
        payload: { enabled: true },
        forbidden: 'auditor',
      });
      expect((await updateFeed('no-such-feed', { enabled: false })).statusCode).toBe(404);
      const globexFeed = (
        await upload(
          { name: 'Globex feed', fileName: 'g.txt', content: '192.0.2.1' },
          t.globexOwner,
          '/api/policy/feeds/globex/upload',
        )
      ).json();
      expect((await updateFeed(globexFeed.id, { enabled: false })).statusCode).toBe(404);
      const rename = await updateFeed('builtin-bogons', { name: 'Mine now', refreshMinutes: 60 });
      expect(rename.statusCode).toBe(400);
      expect(rename.json().details).toEqual([
        { path: 'body.name', message: 'policy.validation.builtinFeed' },
        { path: 'body.refreshMinutes', message: 'policy.validation.notUrlFeed' },
      ]);
      const badSchedule = await updateFeed('builtin-bogons', { refreshMinutes: 5 });
      expect(detailPaths(badSchedule.json())).toEqual(['body.refreshMinutes']);
    });

    it('enables a built-in feed, renames and reschedules a URL feed, with before/after in the log', async () => {
      const on = await updateFeed('builtin-bogons', { enabled: true });
      expect(on.statusCode).toBe(200);
      expect(on.json()).toMatchObject({ id: 'builtin-bogons', enabled: true });
      expect((await listFeeds()).find((feed) => feed.id === 'builtin-bogons')?.enabled).toBe(true);
      const vendor = (await listFeeds()).find((feed) => feed.name === 'Vendor feed')!;
      const res = await updateFeed(vendor.id, {
        name: 'Vendor feed (EU)',
        refreshMinutes: 1440,
        enabled: false,
      });
      expect(res.json()).toMatchObject({
        name: 'Vendor feed (EU)',
        refreshMinutes: 1440,
        enabled: false,
        ipCount: 2,
      });
      const [event] = (await eventsOf(f, 'policy.feed.update')).filter((e) => e.objectId === vendor.id);
      expect(event.before).toMatchObject({ name: 'Vendor feed', enabled: true, refreshMinutes: 60 });
      expect(event.after).toMatchObject({ name: 'Vendor feed (EU)', enabled: false });
      await updateFeed(vendor.id, { enabled: true });
    });
  });

  describe('POST policy/feeds/{tenant}/{id}/refresh', () => {
    it('covers 401, 403, 404 and 400 (not a URL feed, not an id)', async () => {
      const upload = (await listFeeds()).find((feed) => feed.name === 'SOC list')!;
      await expectGuards(f, t, { method: 'POST', url: `${URL}/${upload.id}/refresh`, forbidden: 'auditor' });
      const notUrl = await f.app.inject({
        method: 'POST',
        url: `${URL}/${upload.id}/refresh`,
        headers: auth(t.owner),
      });
      expect(notUrl.statusCode).toBe(400);
      expect(notUrl.json().details).toEqual([{ path: 'params.id', message: 'policy.validation.notUrlFeed' }]);
      expect(
        (await f.app.inject({ method: 'POST', url: `${URL}/${UNKNOWN_ID}/refresh`, headers: auth(t.owner) }))
          .statusCode,
      ).toBe(404);
      const builtin = await f.app.inject({
        method: 'POST',
        url: `${URL}/builtin-bogons/refresh`,
        headers: auth(t.owner),
      });
      expect(detailPaths(builtin.json())).toEqual(['params.id']);
    });

    it('picks up new entries, and on a failure keeps the old entries and shows the error', async () => {
      pages.set('/rotating.txt', '192.0.2.1\n');
      const feed = (await addUrlFeed({ name: 'Rotating', url: `${base}/rotating.txt` })).json();
      expect(feed.ipCount).toBe(1);
      pages.set('/rotating.txt', '192.0.2.1\n192.0.2.2\nfresh.example\n');
      const refreshed = await f.app.inject({
        method: 'POST',
        url: `${URL}/${feed.id}/refresh`,
        headers: auth(t.owner),
      });
      expect(refreshed.statusCode).toBe(200);
      expect(refreshed.json()).toMatchObject({ ipCount: 2, domainCount: 1, lastError: null });
      pages.delete('/rotating.txt');
      const failed = await f.app.inject({
        method: 'POST',
        url: `${URL}/${feed.id}/refresh`,
        headers: auth(t.owner),
      });
      expect(failed.statusCode).toBe(200);
      expect(failed.json()).toMatchObject({
        ipCount: 2,
        domainCount: 1,
        lastError: 'HTTP 404 Not Found',
        lastRefreshedAt: refreshed.json().lastRefreshedAt,
      });
      expect((await eventsOf(f, 'policy.feed.refresh')).filter((e) => e.objectId === feed.id)).toHaveLength(
        2,
      );
    });

    it('the scheduler refreshes due URL feeds and leaves the others', async () => {
      pages.set('/scheduled.txt', '198.51.100.1\n');
      const due = (
        await addUrlFeed({ name: 'Scheduled', url: `${base}/scheduled.txt`, refreshMinutes: 15 })
      ).json();
      pages.set('/fresh.txt', '198.51.100.2\n');
      const notDue = (
        await addUrlFeed({ name: 'Not due', url: `${base}/fresh.txt`, refreshMinutes: 15 })
      ).json();
      pages.set('/scheduled.txt', '198.51.100.1\n198.51.100.3\n');
      pages.set('/fresh.txt', '198.51.100.2\n198.51.100.4\n');
      const longAgo = new Date(Date.now() - 16 * 60_000);
      await f.database.db
        .update(policyFeeds)
        .set({ lastRefreshedAt: longAgo, updatedAt: longAgo, createdAt: longAgo })
        .where(and(eq(policyFeeds.tenantId, f.acme.id), eq(policyFeeds.id, due.id)));
      await refreshDueFeeds(f.database);
      const feeds = await listFeeds();
      expect(feeds.find((feed) => feed.id === due.id)).toMatchObject({ ipCount: 2, lastError: null });
      expect(feeds.find((feed) => feed.id === notDue.id)).toMatchObject({ ipCount: 1 });
    });
  });

  describe('DELETE policy/feeds/{tenant}', () => {
    it('covers 401, 403, 404 and 400 (built-in feeds cannot be deleted)', async () => {
      await expectGuards(f, t, {
        method: 'DELETE',
        url: URL,
        payload: { ids: [UNKNOWN_ID] },
        forbidden: 'auditor',
      });
      const builtin = await f.app.inject({
        method: 'DELETE',
        url: URL,
        headers: auth(t.owner),
        payload: { ids: [UNKNOWN_ID, 'builtin-test-indicators'] },
      });
      expect(builtin.statusCode).toBe(400);
      expect(builtin.json().details).toEqual([
        { path: 'body.ids.1', message: 'policy.validation.builtinFeed' },
      ]);
      expect(
        (await f.app.inject({ method: 'DELETE', url: URL, headers: auth(t.owner), payload: { ids: [] } }))
          .statusCode,
      ).toBe(400);
    });

    it('removes the feed from rules (deleting a rule left with nothing) and skips unknown ids', async () => {
      const feed = (
        await upload({ name: 'Short-lived', fileName: 's.txt', content: 'short.example\n' })
      ).json();
      const policy = await f.app.inject({
        method: 'POST',
        url: '/api/policy/acme',
        headers: auth(t.owner),
        payload: {
          type: 'other',
          name: 'Feed rules',
          rules: [
            { name: 'Only the feed', type: 'dmn', action: 'block', feeds: [feed.id] },
            { name: 'Feed and list', type: 'dmn', action: 'block', url: 'other.example', feeds: [feed.id] },
          ],
        },
      });
      expect(policy.statusCode).toBe(201);
      expect((await listFeeds()).find((x) => x.id === feed.id)?.usedBy).toBe(2);
      const res = await f.app.inject({
        method: 'DELETE',
        url: URL,
        headers: auth(t.owner),
        payload: { ids: [feed.id, UNKNOWN_ID] },
      });
      expect(res.json()).toEqual({ deleted: 1 });
      const rules = (
        await f.app.inject({ url: `/api/policy/acme/${policy.json().policy.id}`, headers: auth(t.owner) })
      ).json().rules;
      expect(rules.map((r: { name: string; feeds: string[] }) => [r.name, r.feeds])).toEqual([
        ['Feed and list', []],
      ]);
      expect((await listFeeds()).map((x) => x.id)).not.toContain(feed.id);
      const [event] = (await eventsOf(f, 'policy.feed.delete')).filter((e) => e.objectId === feed.id);
      expect(event.before).toMatchObject({ name: 'Short-lived', domainCount: 1 });
    });
  });
});

describe('malicious IPs API', () => {
  it('covers 401, 403, 404 and 400', async () => {
    await expectGuards(f, t, { method: 'GET', url: MALICIOUS_URL, forbidden: 'helpdesk' });
    const bad = await f.app.inject({
      url: `${MALICIOUS_URL}?limit=0&duplicatesOnly=yes`,
      headers: auth(t.owner),
    });
    expect(bad.statusCode).toBe(400);
    expect(detailPaths(bad.json()).sort()).toEqual(['query.duplicatesOnly', 'query.limit']);
  });

  it('lists the entries of enabled feeds with their sources and flags duplicates with both sources', async () => {
    // globex: only the built-in defaults (test indicators on, bogons off) plus one upload inside a test range.
    const globex = '/api/policy/maliciousip/globex';
    await upload(
      { name: 'Analyst list', fileName: 'a.txt', content: '203.0.113.9\n192.0.2.0/24\n' },
      t.globexOwner,
      '/api/policy/feeds/globex/upload',
    );
    const res = await f.app.inject({ url: globex, headers: auth(t.globexOwner) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const indicators = { id: 'builtin-test-indicators', name: 'Palisade test indicators' };
    const analyst = { id: expect.any(String), name: 'Analyst list' };
    const globexFeedRow = (await listFeeds(t.globexOwner, 'globex')).find(
      (feed) => feed.name === 'Globex feed',
    )!;
    const globexFeed = { id: globexFeedRow.id, name: 'Globex feed' };
    expect(body.items).toEqual([
      { ip: '192.0.2.0/24', sources: [indicators, analyst] },
      { ip: '192.0.2.1', sources: [globexFeed, indicators, analyst] },
      { ip: '198.51.100.0/24', sources: [indicators] },
      { ip: '203.0.113.0/24', sources: [indicators] },
      { ip: '203.0.113.9', sources: [analyst, indicators] },
    ]);
    expect(body).toMatchObject({ total: 5, duplicates: 3 });

    const dupes = (
      await f.app.inject({ url: `${globex}?duplicatesOnly=true`, headers: auth(t.globexOwner) })
    ).json();
    expect(dupes.items.map((i: { ip: string }) => i.ip)).toEqual([
      '192.0.2.0/24',
      '192.0.2.1',
      '203.0.113.9',
    ]);
    expect(dupes).toMatchObject({ total: 3, duplicates: 3 });
    // A search by address finds the blocks containing it too.
    const search = (
      await f.app.inject({ url: `${globex}?q=203.0.113.9`, headers: auth(t.globexOwner) })
    ).json();
    expect(search.items.map((i: { ip: string }) => i.ip)).toEqual(['203.0.113.0/24', '203.0.113.9']);
    const page = (
      await f.app.inject({ url: `${globex}?limit=2&offset=2`, headers: auth(t.globexOwner) })
    ).json();
    expect(page.items.map((i: { ip: string }) => i.ip)).toEqual(['198.51.100.0/24', '203.0.113.0/24']);
    expect(page.total).toBe(5);
  });

  it('leaves out disabled feeds', async () => {
    const before = (
      await f.app.inject({ url: `${MALICIOUS_URL}?q=240.0.0.0`, headers: auth(t.owner) })
    ).json();
    expect(before.items.map((i: { ip: string }) => i.ip)).toEqual(['240.0.0.0/4']);
    await updateFeed('builtin-bogons', { enabled: false });
    const after = (
      await f.app.inject({ url: `${MALICIOUS_URL}?q=240.0.0.0`, headers: auth(t.owner) })
    ).json();
    expect(after).toEqual({ items: [], total: 0, duplicates: 0 });
  });
});
