import { generateKeyPair } from '@palisade/gateway-config';
import { describe, expect, it } from 'vitest';
import { addPlatformAdmin, useFixture } from '../../test/helper';

const f = useFixture();

const UUID = '00000000-0000-4000-8000-000000000000';

/** A plausible value for a path parameter, so only the NUL byte makes the request wrong. */
const sampleParam = (name: string) => (name === 'tenant' || name === 'name' ? 'acme' : UUID);

/** The route's path with its parameters filled in, `nulIn` (if any) carrying a NUL byte. */
function fillPath(url: string, nulIn?: string): string {
  return url.replace(/:([a-zA-Z]+)|\*/g, (_, name: string | undefined) => {
    const value = name ? sampleParam(name) : 'index.html';
    return (name ?? '*') === nulIn ? `${value}%00` : value;
  });
}

const paramNames = (url: string) => [...url.matchAll(/:([a-zA-Z]+)|\*/g)].map((m) => m[1] ?? '*');

interface Probe {
  method: string;
  url: string;
  payload?: unknown;
  /** The `details` path the 400 must name. */
  path: string;
}

/** A gateway of acme, created by its owner and enrolled: answers its credential. */
async function enrolledGateway(owner: string): Promise<string> {
  const created = await f.app.inject({
    method: 'POST',
    url: '/api/cybernodes/acme',
    headers: { 'x-auth-token': owner },
    payload: { name: 'NUL probe gateway', kind: 'cgw', region: 'Berlin' },
  });
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey: generateKeyPair().publicKey,
      hostname: 'nul-probe',
      version: '1.0.0',
    },
  });
  return enrolled.json().credential;
}

/** A device of acme enrolled with a deployment key: answers its credential. */
async function enrolledDevice(owner: string): Promise<string> {
  const key = await f.app.inject({
    method: 'POST',
    url: '/api/enrolment/acme/keys',
    headers: { 'x-auth-token': owner },
    payload: { name: 'NUL probe key' },
  });
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/enrol',
    payload: { token: key.json().token, device: { name: 'NUL probe device', os: 'linux' } },
  });
  return enrolled.json().deviceToken;
}

describe('NUL bytes in any input', () => {
  it('keeps the 401 → 404 → 403 → 400 order', async () => {
    const nulTenant = { method: 'POST' as const, url: '/api/groups/ac%00me', payload: { name: 'x' } };
    expect((await f.app.inject(nulTenant)).statusCode).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    const owner = await f.signIn('admin@acme.test');
    // Another tenant's resource is not found before its input is looked at.
    const other = await f.app.inject({
      method: 'PUT',
      url: `/api/groups/globex/${UUID}`,
      headers: { 'x-auth-token': owner },
      payload: { name: 'Glo\u0000bex' },
    });
    expect(other.statusCode).toBe(404);
    // A name holding NUL names no tenant: the role is checked, then the input refused.
    expect((await f.app.inject({ ...nulTenant, headers: { 'x-auth-token': auditor } })).statusCode).toBe(403);
    const refused = await f.app.inject({ ...nulTenant, headers: { 'x-auth-token': owner } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      errcode: 2,
      code: 'validation_failed',
      message: expect.any(String),
      details: [{ path: 'params.tenant', message: 'validation.nulByte' }],
    });
  });

  it('answers 400 with field details on every route, never 5xx (path, query, JSON body)', async () => {
    await addPlatformAdmin(f.database);
    const sessions = {
      owner: await f.signIn('admin@acme.test'),
      platform: await f.signIn('root@platform.test'),
    };
    const gatewayCredential = await enrolledGateway(sessions.owner);
    const deviceCredential = await enrolledDevice(sessions.owner);
    const embedLink = await f.app.inject({
      method: 'POST',
      url: '/api/embed-links/acme',
      headers: { 'x-auth-token': sessions.owner },
      payload: { name: 'NUL probe wall', kinds: ['tenant'], expiresInDays: 1 },
    });
    const embedToken = embedLink.json().token as string;
    const send = async (who: keyof typeof sessions, probe: Probe, access?: string) => {
      const call = () =>
        f.app.inject({
          method: probe.method as 'GET',
          url: probe.url,
          // The gateway protocol, the device client and an embedded view authenticate their own credential.
          headers:
            access === 'gateway'
              ? { authorization: `Bearer ${gatewayCredential}` }
              : access === 'device'
                ? { authorization: `Bearer ${deviceCredential}` }
                : access === 'embed'
                  ? { authorization: `Bearer ${embedToken}` }
                  : { 'x-auth-token': sessions[who] },
          ...(probe.payload === undefined ? {} : { payload: probe.payload as object }),
        });
      let res = await call();
      // A request that signed the actor out (today's code runs DELETE /api/session despite the NUL): sign in again.
      if (res.statusCode === 401 && res.json().errcode === 1) {
        sessions[who] = await f.signIn(who === 'owner' ? 'admin@acme.test' : 'root@platform.test');
        res = await call();
      }
      return res;
    };

    const routes = f.routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(100);
    const serverErrors: string[] = [];
    const withoutDetails: string[] = [];
    let sent = 0;
    for (const r of routes) {
      const probes: Probe[] = paramNames(r.url).map((name) => ({
        method: r.method,
        url: fillPath(r.url, name),
        path: `params.${name}`,
      }));
      probes.push({ method: r.method, url: `${fillPath(r.url)}?q=a%00b`, path: 'query.q' });
      if (r.method !== 'GET') {
        probes.push({
          method: r.method,
          url: fillPath(r.url),
          payload: { name: 'Ac\u0000me', nested: [{ 'k\u0000ey': 'v' }] },
          path: 'body.name',
        });
      }
      for (const probe of probes) {
        sent++;
        let res = await send('owner', probe, r.access);
        // Routes the tenant owner may not call (tenants, partners): the platform administrator may.
        if (res.statusCode === 403) res = await send('platform', probe);
        const label = `${probe.method} ${probe.url} ${probe.payload ? 'body' : ''} → ${res.statusCode}`;
        if (res.statusCode >= 500) serverErrors.push(label);
        // Routes declared from the contracts check every input; the docs and SPA routes only must not fail.
        if (r.access) {
          const body = res.statusCode === 400 ? res.json() : null;
          const paths: string[] = body?.details?.map((d: { path: string }) => d.path) ?? [];
          const isFlagged =
            paths.includes(probe.path) &&
            body.details.every((d: { message: string }) => d.message === 'validation.nulByte');
          if (!isFlagged) withoutDetails.push(`${label} ${res.body.slice(0, 120)}`);
        }
      }
    }
    console.info(`NUL probe: ${sent} requests, ${serverErrors.length} answered 5xx`);
    expect(serverErrors).toEqual([]);
    expect(withoutDetails).toEqual([]);
  });
});

describe('what answers without a session', () => {
  it('is exactly this list: a sensitive route made public (or added without an access) fails here', () => {
    // Contract routes say `access: 'public'`; a route registered without the contracts carries no access and
    // has no access check at all. Both are public: each is named here on purpose. Outside /api: the web app's
    // files, its translations and the redirect to it (public by nature; the built files vary with the build).
    const open = f.routes
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && r.url.startsWith('/api/'))
      .filter((r) => r.access === undefined || r.access === 'public')
      .map((r) => `${r.method} ${r.url}${r.access === undefined ? ' (no access check)' : ''}`)
      .sort();
    expect(open).toEqual([
      'GET /api/blockaccess/:type',
      'GET /api/blockaccess/:type/:id',
      'GET /api/config',
      'GET /api/docs (no access check)',
      'GET /api/docs/json (no access check)',
      'GET /api/docs/static/* (no access check)',
      'GET /api/docs/static/index.html (no access check)',
      'GET /api/docs/static/swagger-initializer.js (no access check)',
      'GET /api/docs/yaml (no access check)',
      'GET /api/enrol/:token',
      'GET /api/health',
      'GET /api/health/live',
      'GET /api/invite/:transid',
      'GET /api/partner/:name',
      'GET /api/partner/:name/logo',
      'GET /api/trans/status/web/:transid',
      'GET /api/user/verify/:transid',
      'POST /api/billing/webhook',
      'POST /api/blockaccess/:type/:id/request',
      'POST /api/enrol',
      'POST /api/gw/enrol',
      'POST /api/invite/:transid/accept',
      'POST /api/reports/recipients/confirm',
      'POST /api/session',
      'POST /api/session/otp',
      'POST /api/signup',
      'POST /api/signup/resend',
    ]);
  });
});
