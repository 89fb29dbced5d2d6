import { EMBED_KINDS, type EmbedKind, embedMayCall, type RawQuery } from '@palisade/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, useFixture } from '../../../test/helper';
import { adminEvents, users } from '../../db/schema';
import { embedLinks } from './embed-links.tables';

const session = (id: string) => ({ 'x-auth-token': id });
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const detailPaths = (body: { details?: { path: string; message: string }[] }) =>
  (body.details ?? []).map((d) => `${d.path}:${d.message}`);

const f = useFixture();
let owner: string;
let endUserId: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const [row] = await f.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.username, 'enduser@acme.test'));
  endUserId = row.id;
});

/** Creates a link as `as` (a session id) for acme; answers the response. */
function create(body: Record<string, unknown>, as = owner, tenant = 'acme') {
  return f.app.inject({
    method: 'POST',
    url: `/api/embed-links/${tenant}`,
    headers: session(as),
    payload: body,
  });
}

/** Creates a link and answers its token and id. */
async function newLink(body: Record<string, unknown>, as = owner, tenant = 'acme') {
  const res = await create({ name: 'Wall screen', expiresInDays: 7, ...body }, as, tenant);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as {
    id: string;
    token: string;
    prefix: string;
    kinds: EmbedKind[];
    userId: string | null;
  };
}

describe('embed links: the credential of an embedded dashboard', () => {
  describe('GET/POST/DELETE /embed-links/{tenant}', () => {
    it('requires a session (401)', async () => {
      for (const [method, url] of [
        ['GET', '/api/embed-links/acme'],
        ['POST', '/api/embed-links/acme'],
        ['DELETE', '/api/embed-links/acme/00000000-0000-4000-8000-000000000000'],
      ] as const) {
        const res = await f.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
        expect(res.statusCode, url).toBe(401);
        expect(res.json()).toMatchObject({ errcode: 1 });
      }
    });

    it("answers 404 for another tenant's links and for another tenant's link id", async () => {
      const link = await newLink({ kinds: ['tenant'] });
      const globex = await f.signIn('admin@globex.test');
      expect(
        (await f.app.inject({ url: '/api/embed-links/acme', headers: session(globex) })).statusCode,
      ).toBe(404);
      expect((await create({ name: 'x', kinds: ['tenant'] }, globex)).statusCode).toBe(404);
      const revoke = await f.app.inject({
        method: 'DELETE',
        url: `/api/embed-links/globex/${link.id}`,
        headers: session(globex),
      });
      expect(revoke.statusCode).toBe(404);
    });

    it('answers 403 to an API token (it cannot mint links) and to an end user, before the input', async () => {
      const token = await f.app.inject({
        method: 'POST',
        url: '/api/me/tokens',
        headers: session(owner),
        payload: { name: 'Reader', role: 'auditor' },
      });
      const secret = token.json().secret as string;
      const list = await f.app.inject({ url: '/api/embed-links/acme', headers: bearer(secret) });
      expect(list.statusCode).toBe(403);
      const made = await f.app.inject({
        method: 'POST',
        url: '/api/embed-links/acme',
        headers: bearer(secret),
        payload: { name: 'Minted', kinds: ['tenant'] },
      });
      expect(made.statusCode).toBe(403);
      const endUser = await f.signIn('enduser@acme.test');
      expect((await create({ name: '' }, endUser)).statusCode).toBe(403);
    });

    it('refuses bad input with field details and saves nothing', async () => {
      const before = await f.database.db.select().from(embedLinks);
      const cases: [Record<string, unknown>, string[]][] = [
        [{ name: '', kinds: [] }, ['body.name:validation.required', 'body.kinds:validation.embedKinds']],
        [{ name: 'x', kinds: ['nope'] }, ['body.kinds.0:validation.embedKind']],
        [{ name: 'x', kinds: ['tenant', 'tenant'] }, ['body.kinds:validation.duplicate']],
        [{ name: 'x', kinds: ['user-tag'] }, ['body.userId:validation.embedUser']],
        [{ name: 'x', kinds: ['tenant'], userId: endUserId }, ['body.userId:validation.embedNoUser']],
        [{ name: 'x', kinds: ['tenant'], expiresInDays: 3 }, ['body.expiresInDays:validation.embedExpiry']],
        // A user of another tenant (or an administrator) is no user a per-user link can show.
        [
          { name: 'x', kinds: ['user-tag'], userId: '00000000-0000-4000-8000-000000000000' },
          ['body.userId:validation.unknownUser'],
        ],
      ];
      for (const [body, paths] of cases) {
        const res = await create(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(detailPaths(res.json())).toEqual(paths);
      }
      expect(await f.database.db.select().from(embedLinks)).toHaveLength(before.length);
    });

    it('refuses dashboards whose reads the creator does not hold (nobody grants what they lack)', async () => {
      // The billing administrator sees dashboards but not gateways: site performance reads gateways.
      const billing = await f.signIn('billing@acme.test');
      const res = await create({ name: 'Sites', kinds: ['weekly-site-performance'] }, billing);
      expect(res.statusCode).toBe(400);
      expect(detailPaths(res.json())).toEqual(['body.kinds:validation.permissionNotHeld']);
      expect((await create({ name: 'Sase', kinds: ['tenant'], expiresInDays: 1 }, billing)).statusCode).toBe(
        201,
      );
    });

    it('asks for the password or a TOTP code again past 30 days; a wrong one saves nothing', async () => {
      const missing = await create({ name: 'Year', kinds: ['tenant'], expiresInDays: 365 });
      expect(missing.statusCode).toBe(403);
      expect(missing.json()).toMatchObject({ errcode: 28, code: 'reauthentication_required' });
      expect(detailPaths(missing.json())).toEqual(['body.reauth:validation.reauthRequired']);
      const wrong = await create({
        name: 'Year',
        kinds: ['tenant'],
        expiresInDays: 365,
        reauth: { password: 'not-the-password' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(detailPaths(wrong.json())).toEqual(['body.reauth.password:validation.passwordIncorrect']);
      // A code is refused when the account has no second factor.
      const code = await create({
        name: 'Year',
        kinds: ['tenant'],
        expiresInDays: 90,
        reauth: { code: '123456' },
      });
      expect(code.statusCode).toBe(400);
      const years = await f.database.db.select().from(embedLinks).where(eq(embedLinks.name, 'Year'));
      expect(years).toEqual([]);
      const ok = await create({
        name: 'Year',
        kinds: ['tenant'],
        expiresInDays: 365,
        reauth: { password: PASSWORD },
      });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(Date.parse(ok.json().expiresAt) - Date.now()).toBeGreaterThan(364 * 86_400_000);
    });

    it('creates a link (token answered once, only its hash kept), lists it and logs it', async () => {
      const res = await create({ name: 'Lobby', kinds: ['tenant', 'global'], expiresInDays: 30 });
      expect(res.statusCode).toBe(201);
      const link = res.json();
      expect(link).toMatchObject({
        name: 'Lobby',
        tenant: 'acme',
        kinds: ['tenant', 'global'],
        userId: null,
        createdBy: { username: 'admin@acme.test' },
        revokedAt: null,
      });
      expect(link.token).toMatch(/^emb_[A-Za-z0-9_-]{43}$/);
      expect(link.prefix).toBe(link.token.slice(0, 8));
      const [stored] = await f.database.db.select().from(embedLinks).where(eq(embedLinks.id, link.id));
      expect(JSON.stringify(stored)).not.toContain(link.token);
      const list = await f.app.inject({ url: '/api/embed-links/acme?active=true', headers: session(owner) });
      expect(list.statusCode).toBe(200);
      const listed = list.json().items.find((item: { id: string }) => item.id === link.id);
      expect(listed).toMatchObject({ name: 'Lobby', prefix: link.prefix });
      expect(listed.token).toBeUndefined();
      const [event] = await f.database.db
        .select()
        .from(adminEvents)
        .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, 'embed_link.create')))
        .orderBy(desc(adminEvents.at))
        .limit(1);
      expect(event).toMatchObject({ objectId: link.id, objectName: 'Lobby' });
    });

    it('lets its creator or a roles:update holder revoke it, nobody else', async () => {
      const auditor = await f.signIn('auditor@acme.test');
      const mine = await newLink({ name: 'Audit wall', kinds: ['tenant'] }, auditor);
      const owners = await newLink({ name: 'Owner wall', kinds: ['tenant'] });
      const revoke = (id: string, as: string) =>
        f.app.inject({ method: 'DELETE', url: `/api/embed-links/acme/${id}`, headers: session(as) });
      expect((await revoke(owners.id, auditor)).statusCode).toBe(403);
      const own = await revoke(mine.id, auditor);
      expect(own.statusCode).toBe(200);
      expect(own.json().revokedAt).not.toBeNull();
      expect((await revoke(owners.id, owner)).statusCode).toBe(200);
      // Gone at once.
      expect(
        (await f.app.inject({ url: '/api/embed/session', headers: bearer(owners.token) })).statusCode,
      ).toBe(401);
    });
  });

  describe('what an embed token can do', () => {
    it('opens its view (GET /embed/session) and reads its dashboards, in its tenant only', async () => {
      const link = await newLink({ kinds: ['tenant'] });
      const view = await f.app.inject({ url: '/api/embed/session', headers: bearer(link.token) });
      expect(view.statusCode, view.body).toBe(200);
      expect(view.json()).toMatchObject({
        tenant: 'acme',
        tenantDisplayName: 'ACME',
        kinds: ['tenant'],
        permissions: ['dashboard:view'],
        tenantTheme: 'light',
      });
      expect(
        (await f.app.inject({ url: '/api/dashboard/acme/summary', headers: bearer(link.token) })).statusCode,
      ).toBe(200);
      expect(
        (await f.app.inject({ url: '/api/dashboard/globex/summary', headers: bearer(link.token) }))
          .statusCode,
      ).toBe(404);
      // Another dashboard's read, and the console's own reads.
      for (const url of [
        '/api/reports/acme/security-compliance',
        '/api/subscriber/user/acme',
        '/api/subscriber/tenant/acme',
        '/api/session',
        '/api/me/tokens',
        '/api/embed-links/acme',
      ]) {
        const res = await f.app.inject({ url, headers: bearer(link.token) });
        expect(res.statusCode, url).toBe(403);
      }
    });

    it('cannot mint a token, a session or another link, nor write anything', async () => {
      const link = await newLink({ kinds: ['tenant', 'global'] });
      const calls = [
        {
          method: 'POST',
          url: '/api/me/tokens',
          payload: { name: 'Forever', role: 'owner', expiresInDays: null },
        },
        { method: 'POST', url: '/api/embed-links/acme', payload: { name: 'Child', kinds: ['tenant'] } },
        { method: 'PUT', url: '/api/session/target/acme', payload: { edit: true } },
        {
          method: 'POST',
          url: '/api/admins/acme/invite',
          payload: { email: 'evil@example.com', role: 'owner' },
        },
        { method: 'DELETE', url: '/api/session' },
      ] as const;
      for (const call of calls) {
        const res = await f.app.inject({ ...call, headers: bearer(link.token) });
        expect([401, 403], `${call.method} ${call.url}: ${res.statusCode}`).toContain(res.statusCode);
      }
      // Its creator's session is untouched and its creator made no token.
      expect((await f.app.inject({ url: '/api/session', headers: session(owner) })).statusCode).toBe(200);
    });

    it('reads only its user’s decisions (per-user link), only blocks (incident response)', async () => {
      const perUser = await newLink({ kinds: ['user-tag'], userId: endUserId });
      const range = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date().toISOString())}`;
      const decisions = (query: string, token: string) =>
        f.app.inject({ url: `/api/events/decisions/acme?${range}&${query}`, headers: bearer(token) });
      expect((await decisions(`userId=${endUserId}`, perUser.token)).statusCode).toBe(200);
      expect((await decisions('userId=00000000-0000-4000-8000-000000000000', perUser.token)).statusCode).toBe(
        403,
      );
      expect((await decisions('limit=10', perUser.token)).statusCode).toBe(403);
      const blocks = await newLink({ kinds: ['incident-response'] });
      expect((await decisions('decision=block', blocks.token)).statusCode).toBe(200);
      expect((await decisions('decision=allow', blocks.token)).statusCode).toBe(403);
    });

    it('stops when it expires, when its creator is suspended, and shrinks when its creator is demoted', async () => {
      const helpdesk = await f.signIn('helpdesk@acme.test');
      const link = await newLink({ kinds: ['tenant', 'weekly-site-performance'] }, helpdesk);
      const sites = () =>
        f.app.inject({ url: '/api/devices/acme/site-performance?range=24h', headers: bearer(link.token) });
      expect((await sites()).statusCode).toBe(200);
      // Demoted to billing administrator: no gateways:view any more.
      await f.database.db
        .update(users)
        .set({ role: 'billing_admin' })
        .where(eq(users.username, 'helpdesk@acme.test'));
      expect((await sites()).statusCode).toBe(403);
      await f.database.db
        .update(users)
        .set({ isSuspended: true })
        .where(eq(users.username, 'helpdesk@acme.test'));
      expect(
        (await f.app.inject({ url: '/api/embed/session', headers: bearer(link.token) })).statusCode,
      ).toBe(401);
      await f.database.db
        .update(users)
        .set({ isSuspended: false, role: 'helpdesk' })
        .where(eq(users.username, 'helpdesk@acme.test'));
      expect((await sites()).statusCode).toBe(200);
      await f.database.db
        .update(embedLinks)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(embedLinks.id, link.id));
      expect((await sites()).statusCode).toBe(401);
    });

    it('answers 401 or 403 on every route of the OpenAPI document but its dashboards’ reads', async () => {
      const link = await newLink({ kinds: [...EMBED_KINDS], userId: endUserId });
      const docs = await f.app.inject({ url: '/api/docs/json' });
      const paths = docs.json().paths as Record<string, Record<string, unknown>>;
      const id = '00000000-0000-4000-8000-000000000000';
      let swept = 0;
      let allowed = 0;
      for (const [path, operations] of Object.entries(paths)) {
        for (const method of Object.keys(operations)) {
          if (method === 'head') continue;
          const url = `/api${path.replace(/\{(\w+)\}/g, (_m, name: string) =>
            name === 'tenant' || name === 'name' ? 'acme' : id,
          )}`;
          const pattern = path.replace(/\{(\w+)\}/g, ':$1');
          const query: RawQuery = {};
          // The live view streams until it is closed: the next test reads it over a real connection.
          if (pattern === '/telemetry/:tenant/live') {
            expect(embedMayCall(link, 'GET', pattern, query)).toBe(true);
            allowed += 1;
            continue;
          }
          const res = await f.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: bearer(link.token),
            ...(method === 'get' || method === 'delete' ? {} : { payload: {} }),
          });
          swept += 1;
          const mayCall = embedMayCall(link, method.toUpperCase(), pattern, query);
          const security = (operations[method] as { security?: unknown[] }).security;
          if (!security) continue; // public
          if (mayCall || pattern === '/embed/session') {
            allowed += 1;
            expect([401, 403], `${method} ${path}`).not.toContain(res.statusCode);
          } else {
            expect([401, 403], `${method} ${path}: ${res.statusCode}`).toContain(res.statusCode);
          }
        }
      }
      expect(swept).toBeGreaterThan(200);
      // The reads without a condition (the decision list needs its filters): summary, overview, top, private
      // access, weekly insights, compliance, site performance, live — and the view's own context.
      expect(allowed).toBe(9);
    });

    it('streams the live view to a link and ends it the moment the link is revoked', async () => {
      const link = await newLink({ kinds: ['global'] });
      const address = await f.app.listen({ port: 0, host: '127.0.0.1' });
      const controller = new AbortController();
      const response = await fetch(`${address}/api/telemetry/acme/live`, {
        headers: bearer(link.token),
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const ended = (async () => {
        for (;;) {
          const { done } = await reader.read();
          if (done) return Date.now();
        }
      })();
      const revokedAt = Date.now();
      const revoke = await f.app.inject({
        method: 'DELETE',
        url: `/api/embed-links/acme/${link.id}`,
        headers: session(owner),
      });
      expect(revoke.statusCode).toBe(200);
      const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 8_000));
      const at = await Promise.race([ended, timeout]);
      controller.abort();
      expect(at - revokedAt).toBeLessThan(6_000);
    });
  });
});
