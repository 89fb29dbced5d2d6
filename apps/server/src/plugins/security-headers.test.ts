import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';
import { buildApp } from '../app';
import { parseTrustProxy } from '../config';
import { adminEvents } from '../db/schema';

// One proxy is trusted: 127.0.0.1, the address inject() connects from unless told otherwise.
const f = useFixture({ trustProxy: ['127.0.0.1'] });
const STRANGER = '203.0.113.20';

describe('TRUST_PROXY', () => {
  it('is off unless set, and takes a hop count or addresses and CIDRs', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.2, 10.1.0.0/16,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.2',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses to start on true (everyone) or anything that is not an address', () => {
    for (const value of ['true', 'proxy.example', '10.0.0.0/33', '10.0.0.1/8/8', '*']) {
      expect(() => parseTrustProxy(value), value).toThrow(/TRUST_PROXY/);
    }
  });

  it("records a trusted proxy's X-Forwarded-For and anyone else's own address in the event log", async () => {
    const token = await f.signIn('admin@acme.test');
    const eventIp = async (groupName: string) => {
      const rows = await f.database.db
        .select({ ip: adminEvents.ip })
        .from(adminEvents)
        .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.objectName, groupName)));
      return rows.map((row) => row.ip);
    };
    const createGroup = (name: string, remoteAddress: string, forwardedFor: string) =>
      f.app.inject({
        method: 'POST',
        url: '/api/groups/acme',
        remoteAddress,
        headers: { 'x-auth-token': token, 'x-forwarded-for': forwardedFor },
        payload: { name },
      });
    expect((await createGroup('Via proxy', '127.0.0.1', '198.51.100.7')).statusCode).toBe(201);
    expect(await eventIp('Via proxy')).toEqual(['198.51.100.7']);
    const forged = await createGroup('Forged', STRANGER, '=HYPERLINK("http://evil.example","x")');
    expect(forged.statusCode).toBe(201);
    expect(await eventIp('Forged')).toEqual([STRANGER]);
  });
});

describe('HSTS', () => {
  const hsts = async (remoteAddress: string, headers: Record<string, string> = {}) =>
    (await f.app.inject({ url: '/api/health', remoteAddress, headers })).headers['strict-transport-security'];

  it('is not sent over plain HTTP', async () => {
    expect(await hsts(STRANGER)).toBeUndefined();
    expect(await hsts('127.0.0.1')).toBeUndefined();
  });

  it('is sent when a trusted proxy says the request came over TLS', async () => {
    expect(await hsts('127.0.0.1', { 'x-forwarded-proto': 'https' })).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });

  it('is not sent when anyone else claims TLS in X-Forwarded-Proto', async () => {
    expect(await hsts(STRANGER, { 'x-forwarded-proto': 'https' })).toBeUndefined();
  });

  it('believes the nearest hop with TRUST_PROXY=1 (which Fastify 5.12 would ignore as a bare number)', async () => {
    const behindOneHop = await buildApp(
      { ...f.config, trustProxy: 1 },
      { database: f.database, logger: false },
    );
    try {
      const res = await behindOneHop.app.inject({
        url: '/api/health',
        remoteAddress: STRANGER,
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await behindOneHop.close();
    }
  });
});

describe('content security policy', () => {
  it('never asks browsers to upgrade to https: the API docs page and its assets, the API, the locales', async () => {
    const page = await f.app.inject({ url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    const assets = [...page.body.matchAll(/(?:href|src)="(\/api\/docs\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const url of [
      '/api/docs',
      ...assets,
      '/api/docs/json',
      '/api/health',
      '/locales/en/translation.json',
    ]) {
      const res = await f.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).not.toContain('upgrade-insecure-requests');
    }
  });
});
