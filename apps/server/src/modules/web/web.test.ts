import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOME_PATH } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

const webDist = mkdtempSync(join(tmpdir(), 'palisade-web-'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Palisade</title><div id="root"></div>');
writeFileSync(join(webDist, 'app.js'), 'export {};');
const f = useFixture({ webDist });

describe('web, locales and system routes', () => {
  it('answers health and public config', async () => {
    expect((await f.app.inject({ url: '/api/health' })).json()).toEqual({
      status: 'ok',
      database: 'ok',
      redis: 'none',
    });
    expect((await f.app.inject({ url: '/api/health/live' })).json()).toEqual({ status: 'ok' });
    const config = await f.app.inject({ url: '/api/config' });
    expect(config.json()).toEqual({ signOutPartners: ['ntgr'], posthogKey: null, posthogHost: null });
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
    for (const url of ['/', '/nothing-here', '/devices/list', '/XDR/dashboard', '/users/list/a/b']) {
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
