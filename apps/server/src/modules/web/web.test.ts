import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { embedLink, HOME_PATH } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { loadConfig, parseDashboardBaseUrl } from '../../config';

const webDist = mkdtempSync(join(tmpdir(), 'palisade-web-'));
writeFileSync(
  join(webDist, 'index.html'),
  '<!doctype html><html><head><title>Palisade</title></head><body><div id="root"></div></body></html>',
);
writeFileSync(join(webDist, 'app.js'), 'export {};');
// A built asset as the build leaves it: hashed name, brotli and gzip copies beside it (distinct contents, so
// the test sees which one was sent); and one too small to have copies.
const ASSET = 'export const rows = [1, 2, 3];'.repeat(50);
mkdirSync(join(webDist, 'assets'));
writeFileSync(join(webDist, 'assets', 'index-Ab12Cd34.js'), ASSET);
writeFileSync(join(webDist, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(ASSET));
writeFileSync(join(webDist, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(ASSET));
writeFileSync(join(webDist, 'assets', 'tiny-Zz99Yy88.css'), 'a{}');
// The build copies the translations too; they are answered from the source catalogues, revalidated.
mkdirSync(join(webDist, 'locales', 'en'), { recursive: true });
writeFileSync(join(webDist, 'locales', 'en', 'translation.json'), '{"stale":true}');
// What the build says each screen loads (apps/web/build/route-preloads.ts); one name is not a file name.
writeFileSync(
  join(webDist, 'route-preloads.json'),
  JSON.stringify({
    routes: {
      '/sign-in': ['assets/sign-in-Aa11.js', 'assets/sign-in-Bb22.css'],
      '/users/roles': ['assets/roles-Cc33.js'],
      '/users/:id': ['assets/user-detail-Dd44.js', 'assets/x"><script>alert(1)</script>.js'],
      '/embed/tenant/:tenant': ['assets/embed-tenant-Ff66.js'],
    },
    shell: ['assets/app-shell-Ee55.js'],
  }),
);
const DASHBOARD_BASE_URL = 'https://dash.example.com/palisade';
const f = useFixture({ webDist, dashboardBaseUrl: DASHBOARD_BASE_URL });

describe('web, locales and system routes', () => {
  it('answers health and public config', async () => {
    expect((await f.app.inject({ url: '/api/health' })).json()).toEqual({
      status: 'ok',
      database: 'ok',
      redis: 'none',
    });
    expect((await f.app.inject({ url: '/api/health/live' })).json()).toEqual({ status: 'ok' });
    const config = await f.app.inject({ url: '/api/config' });
    expect(config.json()).toEqual({
      signOutPartners: ['ntgr'],
      posthogKey: null,
      posthogHost: null,
      dashboardBaseUrl: DASHBOARD_BASE_URL,
    });
  });

  it('reads DASHBOARD_BASE_URL as an http(s) base, null when unset, and refuses anything else', () => {
    expect(loadConfig({}, []).dashboardBaseUrl).toBeNull();
    expect(parseDashboardBaseUrl(undefined)).toBeNull();
    expect(parseDashboardBaseUrl('  ')).toBeNull();
    expect(parseDashboardBaseUrl('https://Dash.Example.com/')).toBe('https://dash.example.com');
    expect(parseDashboardBaseUrl('http://10.0.0.5:8080/palisade//')).toBe('http://10.0.0.5:8080/palisade');
    expect(loadConfig({ DASHBOARD_BASE_URL: 'https://dash.example.com/x/' }, []).dashboardBaseUrl).toBe(
      'https://dash.example.com/x',
    );
    for (const value of [
      'dash.example.com',
      '/palisade',
      'ftp://dash.example.com',
      'javascript:alert(1)',
      'https://user:secret@dash.example.com',
      'https://dash.example.com/?a=1',
      'https://dash.example.com/#top',
    ]) {
      expect(() => loadConfig({ DASHBOARD_BASE_URL: value }, []), value).toThrow(/DASHBOARD_BASE_URL/);
    }
  });

  it('serves the embedded dashboards without the shell, never leaking their link’s token by Referer', async () => {
    const url = embedLink('', 'emb_a-token', 'tenant', { tenant: 'acme' });
    expect(url).toBe('/embed/tenant/acme?token=emb_a-token');
    const res = await f.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.body).toContain('href="/assets/embed-tenant-Ff66.js"');
    expect(res.body).not.toContain('app-shell');
    for (const path of [
      '/embed/global',
      '/embed/xdr/acme/customer',
      '/embed/user-tag/acme/0b6f6a1e-2f59-4c55-9a43-6a4a2e0b1c1d/Ada%20Lovelace',
    ]) {
      const page = await f.app.inject({ url: `${path}?token=x` });
      expect(page.statusCode, path).toBe(200);
      expect(page.headers['referrer-policy'], path).toBe('no-referrer');
    }
    // An embed path that is no dashboard follows the 302 rule, still without a Referer.
    const unknown = await f.app.inject({ url: '/embed/nothing?token=x' });
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers.location).toBe(HOME_PATH);
    expect(unknown.headers['referrer-policy']).toBe('no-referrer');
  });

  it('serves translations for en and de and the four namespaces only', async () => {
    const en = await f.app.inject({ url: '/locales/en/translation.json' });
    expect(en.statusCode).toBe(200);
    expect(en.json().error.genericFetchErrorText).toBeTruthy();
    const de = await f.app.inject({ url: '/locales/de/translation.json' });
    expect(de.json().error['1']).toContain('Sitzung');
    for (const ns of ['routeTranslation', 'subscriptionHistory', 'paymentHistory']) {
      expect((await f.app.inject({ url: `/locales/de/${ns}.json` })).statusCode).toBe(200);
    }
    expect((await f.app.inject({ url: '/locales/fr/translation.json' })).statusCode).toBe(404);
    expect((await f.app.inject({ url: '/locales/en/..%2F..%2Fpackage.json' })).statusCode).toBe(404);
  });

  it('redirects / and unknown or unbuilt paths to the global dashboard with 302', async () => {
    for (const url of ['/', '/nothing-here', '/XDR/dashboard', '/users/list/a/b']) {
      const res = await f.app.inject({ url });
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe(HOME_PATH);
    }
  });

  it('serves the SPA for served routes and assets as files', async () => {
    for (const url of [
      '/users/list',
      '/sign-in',
      '/northwind/sign-in',
      '/verify/abc',
      HOME_PATH,
      '/tenant/acme/settings',
    ]) {
      const res = await f.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
    const asset = await f.app.inject({ url: '/app.js' });
    expect(asset.statusCode).toBe(200);
  });

  it('sends hashed assets precompressed by Accept-Encoding, cached for a year as immutable', async () => {
    const url = '/assets/index-Ab12Cd34.js';
    const br = await f.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(ASSET);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gz = await f.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(ASSET);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await f.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(ASSET);

    // No compressed copy (too small to be worth one): the file itself, still immutable.
    const tiny = await f.app.inject({
      url: '/assets/tiny-Zz99Yy88.css',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('a{}');
    expect(tiny.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    // Files outside assets/ have no hash in their name: revalidated.
    const unhashed = await f.app.inject({ url: '/app.js' });
    expect(unhashed.headers['cache-control']).toBe('no-cache');
  });

  it('revalidates index.html: no-cache with ETag and Last-Modified, 304 when unchanged, compressed', async () => {
    const first = await f.app.inject({ url: '/sign-in', headers: { 'accept-encoding': 'gzip, br' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-type']).toMatch(/^text\/html/);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(first.rawPayload).toString()).toContain('<div id="root">');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['last-modified']).toBeTruthy();

    const again = await f.app.inject({
      url: '/sign-in',
      headers: { 'accept-encoding': 'gzip, br', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    // Another screen's page names other files to preload: another representation.
    const other = await f.app.inject({
      url: '/users/list',
      headers: { 'accept-encoding': 'gzip, br', 'if-none-match': etag },
    });
    expect(other.statusCode).toBe(200);
    expect(again.body).toBe('');
    const since = await f.app.inject({
      url: '/users/list',
      headers: { 'if-modified-since': first.headers['last-modified'] as string },
    });
    expect(since.statusCode).toBe(304);

    // Another encoding is another representation with its own validator.
    const gz = await f.app.inject({
      url: '/sign-in',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('<div id="root">');
    expect(gz.headers.etag).not.toBe(etag);
  });

  it("names the route's screen files and the language's catalogues in index.html, for the browser to preload", async () => {
    const html = async (url: string, headers: Record<string, string> = {}) => {
      const res = await f.app.inject({ url, headers });
      expect(res.statusCode, url).toBe(200);
      return res;
    };
    const signIn = (await html('/sign-in')).body;
    expect(signIn).toContain(
      '<link rel="preload" href="/locales/en/translation.json" as="fetch" crossorigin="anonymous" fetchpriority="high">',
    );
    expect(signIn).toContain('href="/locales/en/routeTranslation.json"');
    expect(signIn).not.toContain('paymentHistory');
    expect(signIn).toContain('<link rel="modulepreload" crossorigin href="/assets/sign-in-Aa11.js">');
    expect(signIn).toContain('<link rel="preload" href="/assets/sign-in-Bb22.css" as="style" crossorigin>');
    // A public screen never loads the signed-in shell.
    expect(signIn).not.toContain('app-shell');

    // The most literal route wins, as in the router; signed-in screens bring the shell.
    const roles = (await html('/users/roles')).body;
    expect(roles).toContain('href="/assets/roles-Cc33.js"');
    expect(roles).toContain('href="/assets/app-shell-Ee55.js"');
    expect(roles).not.toContain('user-detail');
    const detail = (await html('/users/0b6f6a1e-2f59-4c55-9a43-6a4a2e0b1c1d')).body;
    expect(detail).toContain('href="/assets/user-detail-Dd44.js"');
    expect(detail).not.toContain('<script>alert');

    // The language: ?lng= first, then the app's cookie; the answer says it varies by cookie.
    const byCookie = await html('/sign-in', { cookie: 'theme=dark; i18nextLng=de' });
    expect(byCookie.body).toContain('href="/locales/de/translation.json"');
    expect(byCookie.body).not.toContain('/locales/en/');
    expect(byCookie.headers.vary).toMatch(/cookie/i);
    expect(byCookie.headers.etag).not.toBe((await html('/sign-in')).headers.etag);
    expect((await html('/sign-in?lng=de-AT', { cookie: 'i18nextLng=en' })).body).toContain(
      'href="/locales/de/translation.json"',
    );
    expect((await html('/sign-in', { cookie: 'i18nextLng=fr' })).body).toContain(
      'href="/locales/en/translation.json"',
    );
  });

  it('revalidates translations from the catalogues, compressed, with 304 when unchanged', async () => {
    const url = '/locales/en/translation.json';
    const first = await f.app.inject({ url, headers: { 'accept-encoding': 'br' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    const catalogue = JSON.parse(brotliDecompressSync(first.rawPayload).toString());
    // Not the build's copy in the dist directory.
    expect(catalogue.stale).toBeUndefined();
    expect(catalogue.error.genericFetchErrorText).toBeTruthy();
    expect(first.rawPayload.length).toBeLessThan(JSON.stringify(catalogue).length / 3);

    const again = await f.app.inject({
      url,
      headers: { 'accept-encoding': 'br', 'if-none-match': first.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers unknown API paths with a JSON 404 envelope, never the SPA', async () => {
    const res = await f.app.inject({ url: '/api/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errcode: 4, code: 'not_found' });
  });

  it('serves the OpenAPI document generated from the contracts', async () => {
    const res = await f.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(
      doc.paths['/subscriber/user/{tenant}'].get.parameters.map((p: { name: string }) => p.name),
    ).toEqual(expect.arrayContaining(['tenant', 'limit', 'offset', 'q', 'sort']));
  });
});

describe('every API route declares its access and enforces it', () => {
  it('has no /api route without a declared access (docs excepted)', () => {
    const api = f.routes.filter(
      (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD',
    );
    expect(api.length).toBeGreaterThan(20);
    expect(api.filter((r) => !r.access)).toEqual([]);
  });

  it('answers 401 to every non-public route without a session', async () => {
    const guarded = f.routes.filter(
      (r) => r.url.startsWith('/api/') && r.access && r.access !== 'public' && r.method !== 'HEAD',
    );
    for (const r of guarded) {
      const url = r.url
        .replace(':tenant', 'acme')
        .replace(':name', 'acme')
        .replace(':id', '00000000-0000-4000-8000-000000000000');
      const res = await f.app.inject({
        method: r.method as 'GET',
        url,
        payload: r.method === 'GET' ? undefined : {},
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(res.json().errcode).toBe(1);
    }
  });
});
