import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { idsByCursor } from '../../../test/paging';
import { adminEvents } from '../../db/schema';
import { changedFields, EXPORT_CHUNK_ROWS, purgeExpiredEvents, toCsv } from './events.service';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

type EventRow = typeof adminEvents.$inferInsert;
const DAY_MS = 86_400_000;

/** Writes events straight into the log (the API only reads it). */
async function insertEvents(rows: EventRow[]) {
  if (rows.length === 0) return [];
  return f.database.db.insert(adminEvents).values(rows).returning({ id: adminEvents.id });
}

let admin: string;
let auditor: string;
let billing: string;
let helpdesk: string;
let globexAdmin: string;
let globexEventId: string;
let userId: string;

beforeAll(async () => {
  admin = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  helpdesk = await f.signIn('helpdesk@acme.test');
  globexAdmin = await f.signIn('admin@globex.test');

  // Real writes through the API record real events: a create, an update and a tenant change in acme.
  const created = await f.app.inject({
    method: 'POST',
    url: '/api/subscriber/user/acme',
    headers: auth(admin),
    payload: { username: 'logged@acme.test', firstname: 'Log', lastname: 'Ged' },
  });
  expect(created.statusCode).toBe(201);
  userId = created.json().id;
  const updated = await f.app.inject({
    method: 'PUT',
    url: `/api/subscriber/user/acme/${userId}`,
    headers: auth(admin),
    payload: { firstname: 'Logan', isprvaccess: true },
  });
  expect(updated.statusCode).toBe(200);
  const tenant = await f.app.inject({
    method: 'PUT',
    url: '/api/subscriber/tenant/acme',
    headers: auth(admin),
    payload: { displayName: 'Acme Inc', themevalue: 'dark', palette: 'classic', primaryColor: null },
  });
  expect(tenant.statusCode).toBe(200);

  const other = await f.app.inject({
    method: 'POST',
    url: '/api/subscriber/user/globex',
    headers: auth(globexAdmin),
    payload: { username: 'someone@globex.test', firstname: 'Some', lastname: 'One' },
  });
  expect(other.statusCode).toBe(201);
  const [globexEvent] = await f.database.db
    .select({ id: adminEvents.id })
    .from(adminEvents)
    .where(eq(adminEvents.tenantId, f.globex.id));
  globexEventId = globexEvent.id;

  // Two older events by another actor, a day and ten days back, for the time and actor filters.
  await insertEvents([
    {
      tenantId: f.acme.id,
      at: new Date(Date.now() - DAY_MS),
      actorName: 'robot@acme.test',
      ip: '10.0.0.9',
      action: 'group.create',
      objectType: 'group',
      objectId: 'g-1',
      objectName: 'Night shift',
      after: { name: 'Night shift' },
    },
    {
      tenantId: f.acme.id,
      at: new Date(Date.now() - 10 * DAY_MS),
      actorName: 'robot@acme.test',
      ip: '10.0.0.9',
      action: 'group.delete',
      objectType: 'group',
      objectId: 'g-0',
      objectName: 'Old team',
      before: { name: 'Old team' },
    },
  ]);
});

const list = (token: string | null, query = '', tenant = 'acme') =>
  f.app.inject({ url: `/api/events/admin/${tenant}${query}`, headers: token ? auth(token) : {} });

describe('admin event log API', () => {
  describe('GET events/admin/{tenant}', () => {
    it('requires a session (401, errcode 1)', async () => {
      const res = await list(null);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ errcode: 1, code: 'unauthenticated' });
    });

    it('answers 403 to a role without events:view (billing admin)', async () => {
      const res = await list(billing);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ errcode: 3, code: 'forbidden' });
    });

    it("answers 404 for another tenant's log", async () => {
      const res = await list(admin, '', 'globex');
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    });

    it('lets the partner administrator read its customer, not others', async () => {
      const partner = await f.signIn('partner@northwind.test');
      expect((await list(partner)).statusCode).toBe(200);
      expect((await list(partner, '', 'globex')).statusCode).toBe(404);
    });

    it('rejects bad paging, filters and an inverted time range with field details', async () => {
      const res = await list(admin, '?limit=0&order=sideways&from=yesterday&action=user%20create');
      expect(res.statusCode).toBe(400);
      const paths = res.json().details.map((d: { path: string }) => d.path);
      expect(paths).toEqual(
        expect.arrayContaining(['query.limit', 'query.order', 'query.from', 'query.action']),
      );

      const inverted = await list(admin, '?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z');
      expect(inverted.statusCode).toBe(400);
      expect(inverted.json().details).toEqual([{ path: 'query.to', message: 'validation.invalid' }]);
    });

    it('lists the tenant’s events newest first with the total; an auditor may read', async () => {
      const res = await list(auditor);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.total).toBe(5);
      expect(body.items.map((e: { action: string }) => e.action)).toEqual([
        'tenant.update',
        'user.update',
        'user.create',
        'group.create',
        'group.delete',
      ]);
      expect(body.items[1]).toMatchObject({
        actor: 'admin@acme.test',
        objectType: 'user',
        objectId: userId,
        objectName: 'logged@acme.test',
      });
      expect(body.items[1]).not.toHaveProperty('before');
      const times = body.items.map((e: { at: string }) => Date.parse(e.at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });

    it('pages and sorts oldest first on request', async () => {
      const first = (await list(admin, '?order=asc&limit=2')).json();
      expect(first.total).toBe(5);
      expect(first.items.map((e: { action: string }) => e.action)).toEqual(['group.delete', 'group.create']);
      const second = (await list(admin, '?order=asc&limit=2&offset=2')).json();
      expect(second.items.map((e: { action: string }) => e.action)).toEqual(['user.create', 'user.update']);
    });

    it('filters by actor, exact action, action prefix, object type, time range and free text', async () => {
      const actions = async (query: string) => {
        const res = await list(admin, query);
        expect(res.statusCode).toBe(200);
        return res.json().items.map((e: { action: string }) => e.action);
      };
      expect(await actions('?actor=ROBOT')).toEqual(['group.create', 'group.delete']);
      expect(await actions('?action=user.create')).toEqual(['user.create']);
      expect(await actions('?action=user.')).toEqual(['user.update', 'user.create']);
      expect(await actions('?action=user')).toEqual([]);
      expect(await actions('?objectType=tenant')).toEqual(['tenant.update']);
      const from = new Date(Date.now() - 2 * DAY_MS).toISOString();
      const to = new Date(Date.now() - DAY_MS / 2).toISOString();
      expect(await actions(`?from=${from}&to=${to}`)).toEqual(['group.create']);
      expect(await actions(`?from=${from}&actor=robot`)).toEqual(['group.create']);
      expect(await actions('?q=night')).toEqual(['group.create']);
      expect(await actions('?q=%25')).toEqual([]);
    });
  });

  describe('GET events/admin/{tenant}/{id}', () => {
    const one = (token: string | null, id: string, tenant = 'acme') =>
      f.app.inject({ url: `/api/events/admin/${tenant}/${id}`, headers: token ? auth(token) : {} });
    const updateEventId = async () => (await list(admin, '?action=user.update')).json().items[0].id as string;

    it('requires a session', async () => {
      expect((await one(null, globexEventId)).statusCode).toBe(401);
    });

    it('answers 403 without events:view', async () => {
      expect((await one(billing, await updateEventId())).statusCode).toBe(403);
    });

    it("answers 404 for another tenant's event and for another tenant's path", async () => {
      const res = await one(admin, globexEventId);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
      expect((await one(admin, await updateEventId(), 'globex')).statusCode).toBe(404);
      expect((await one(admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    });

    it('rejects an id that is not a uuid', async () => {
      const res = await one(admin, 'not-a-uuid');
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].path).toBe('params.id');
    });

    it('returns the event with its before and after values', async () => {
      const res = await one(auditor, await updateEventId());
      expect(res.statusCode).toBe(200);
      const event = res.json();
      expect(event).toMatchObject({ action: 'user.update', objectId: userId });
      expect(event.before).toMatchObject({ firstname: 'Log', isprvaccess: false });
      expect(event.after).toMatchObject({ firstname: 'Logan', isprvaccess: true });
    });

    it('returns the answer of the other tenant to its own administrator', async () => {
      const res = await one(globexAdmin, globexEventId, 'globex');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ action: 'user.create', before: null });
    });
  });

  describe('GET events/admin/{tenant}/facets', () => {
    const facets = (token: string | null, tenant = 'acme') =>
      f.app.inject({ url: `/api/events/admin/${tenant}/facets`, headers: token ? auth(token) : {} });

    it('guards like the list (401, 403, 404)', async () => {
      expect((await facets(null)).statusCode).toBe(401);
      expect((await facets(billing)).statusCode).toBe(403);
      expect((await facets(admin, 'globex')).statusCode).toBe(404);
    });

    it("returns the tenant's distinct actions and object types, sorted", async () => {
      const res = await facets(helpdesk);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        actions: ['group.create', 'group.delete', 'tenant.update', 'user.create', 'user.update'],
        objectTypes: ['group', 'tenant', 'user'],
      });
    });
  });

  describe('GET events/admin/{tenant}/export', () => {
    const exportCsv = (token: string | null, query = '', tenant = 'acme') =>
      f.app.inject({ url: `/api/events/admin/${tenant}/export${query}`, headers: token ? auth(token) : {} });

    it('guards like the list (401, 403, 404, 400)', async () => {
      expect((await exportCsv(null)).statusCode).toBe(401);
      expect((await exportCsv(billing)).statusCode).toBe(403);
      expect((await exportCsv(admin, '', 'globex')).statusCode).toBe(404);
      const bad = await exportCsv(admin, '?to=2020-01-01T00:00:00Z&from=2021-01-01T00:00:00Z');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].path).toBe('query.to');
    });

    it('answers the filtered rows as a CSV download with the changed fields', async () => {
      const res = await exportCsv(auditor, '?action=user.');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="admin-events-acme-.+\.csv"$/,
      );
      expect(res.body.endsWith('\r\n')).toBe(true);
      const rows: string[][] = parse(res.body);
      expect(rows[0]).toEqual([
        'Time',
        'Actor',
        'IP',
        'Action',
        'Object type',
        'Object ID',
        'Object name',
        'Changed fields',
      ]);
      expect(rows.slice(1).map((r) => r[3])).toEqual(['user.update', 'user.create']);
      const [time, actor, , , type, id, name, changed] = rows[1];
      expect(Number.isNaN(Date.parse(time))).toBe(false);
      expect([actor, type, id, name]).toEqual(['admin@acme.test', 'user', userId, 'logged@acme.test']);
      expect(changed.split(' ')).toEqual(
        expect.arrayContaining(['firstname', 'fullname', 'isprvaccess', 'updatedAt']),
      );
      expect(changed.split(' ')).not.toContain('username');
    });

    it('quotes per RFC 4180 and defuses spreadsheet formulas', async () => {
      await insertEvents(
        ['=HYPERLINK("http://evil")', '+1', '-2', '@SUM(A1)', 'comma, inside', 'two\nlines', 'say "hi"'].map(
          (objectName) => ({
            tenantId: f.acme.id,
            actorName: 'csv@acme.test',
            action: 'csv.test',
            objectType: 'csv',
            objectName,
          }),
        ),
      );
      const res = await exportCsv(admin, '?objectType=csv&order=asc');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
      expect(res.body).toContain('"comma, inside"');
      expect(res.body).toContain('"two\nlines"');
      expect(res.body).toContain('"say ""hi"""');
      const names = (parse(res.body) as string[][]).slice(1).map((r) => r[6]);
      expect(names.sort()).toEqual(
        [
          `'=HYPERLINK("http://evil")`,
          "'+1",
          "'-2",
          "'@SUM(A1)",
          'comma, inside',
          'two\nlines',
          'say "hi"',
        ].sort(),
      );
    });

    it('reads past one chunk without losing or repeating events that share a time', async () => {
      const at = new Date(Date.now() - 3 * DAY_MS);
      const count = EXPORT_CHUNK_ROWS + 321;
      await insertEvents(
        Array.from({ length: count }, (_, i) => ({
          tenantId: f.acme.id,
          at,
          actorName: 'bulk@acme.test',
          action: 'bulk.test',
          objectType: 'bulk',
          objectId: `b-${i}`,
        })),
      );
      for (const order of ['asc', 'desc']) {
        const res = await exportCsv(admin, `?objectType=bulk&order=${order}`);
        const ids = (parse(res.body) as string[][]).slice(1).map((r) => r[5]);
        expect(ids).toHaveLength(count);
        expect(new Set(ids).size).toBe(count);
      }
    });
  });

  describe('events/admin/{tenant}/retention', () => {
    const getRetention = (token: string | null, tenant = 'acme') =>
      f.app.inject({ url: `/api/events/admin/${tenant}/retention`, headers: token ? auth(token) : {} });
    const putRetention = (token: string | null, payload: unknown, tenant = 'acme') =>
      f.app.inject({
        method: 'PUT',
        url: `/api/events/admin/${tenant}/retention`,
        headers: token ? auth(token) : {},
        payload: payload as Record<string, unknown>,
      });

    it('GET guards and answers the default of 365 days, up to 3650 without a subscription', async () => {
      expect((await getRetention(null)).statusCode).toBe(401);
      expect((await getRetention(billing)).statusCode).toBe(403);
      expect((await getRetention(admin, 'globex')).statusCode).toBe(404);
      const res = await getRetention(auditor, 'acme');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ days: 365, maxDays: 3650 });
    });

    it('PUT needs a session and tenant:update (auditors and helpdesk only read)', async () => {
      expect((await putRetention(null, { days: 30 })).statusCode).toBe(401);
      expect((await putRetention(auditor, { days: 30 })).statusCode).toBe(403);
      expect((await putRetention(helpdesk, { days: 30 })).statusCode).toBe(403);
      expect((await putRetention(admin, { days: 30 }, 'globex')).statusCode).toBe(404);
      expect((await getRetention(admin)).json()).toEqual({ days: 365, maxDays: 3650 });
    });

    it('PUT rejects days outside 7..3650 with details', async () => {
      for (const days of [6, 3651, 30.5, '30']) {
        const res = await putRetention(admin, { days });
        expect(res.statusCode).toBe(400);
        expect(res.json().details[0].path).toBe('body.days');
      }
    });

    it('PUT stores the retention and records the change in the log', async () => {
      const res = await putRetention(admin, { days: 30 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ days: 30, maxDays: 3650 });
      expect((await getRetention(admin)).json()).toEqual({ days: 30, maxDays: 3650 });
      const [event] = (await list(admin, '?action=tenant.eventRetention.update')).json().items;
      expect(event).toMatchObject({ actor: 'admin@acme.test', objectType: 'tenant', objectName: 'acme' });
      const detail = await f.app.inject({ url: `/api/events/admin/acme/${event.id}`, headers: auth(admin) });
      expect(detail.json()).toMatchObject({
        before: { eventRetentionDays: 365 },
        after: { eventRetentionDays: 30 },
      });
      // The other tenant keeps its own setting.
      expect((await getRetention(globexAdmin, 'globex')).json()).toEqual({ days: 365, maxDays: 3650 });
    });
  });

  describe('retention purge', () => {
    it("deletes each tenant's events older than its own retention, and nothing else", async () => {
      // acme keeps 30 days (set above), globex the default 365.
      const old = (tenantId: string, days: number) => ({
        tenantId,
        at: new Date(Date.now() - days * DAY_MS),
        actorName: 'old@test',
        action: 'purge.test',
        objectType: 'purge',
      });
      await insertEvents([old(f.acme.id, 31), old(f.acme.id, 400), old(f.acme.id, 29), old(f.globex.id, 31)]);
      const acmeBefore = (await list(admin, '?limit=1')).json().total;

      const deleted = await purgeExpiredEvents(f.database);
      expect(deleted).toBe(2);
      const purgeLeft = (await list(admin, '?objectType=purge')).json();
      expect(purgeLeft.total).toBe(1);
      expect(Date.now() - Date.parse(purgeLeft.items[0].at)).toBeLessThan(30 * DAY_MS);
      expect((await list(admin, '?limit=1')).json().total).toBe(acmeBefore - 2);
      expect((await list(globexAdmin, '?objectType=purge', 'globex')).json().total).toBe(1);
      expect(await purgeExpiredEvents(f.database)).toBe(0);
    });
  });
});

describe('CSV and changed-field helpers', () => {
  it('quotes only what needs quoting and ends records with CRLF', () => {
    expect(toCsv([['plain', 'a,b', 'x"y', 'l\r\nm', '']])).toBe('plain,"a,b","x""y","l\r\nm",\r\n');
    expect(toCsv([['l\nm', 'l\rm']])).toBe('"l\nm","l\rm"\r\n');
    expect(toCsv([['=1+1', '-x', '+x', '@x', 'a=b']])).toBe("'=1+1,'-x,'+x,'@x,a=b\r\n");
  });

  it('names added, removed and changed fields, not unchanged ones', () => {
    expect(changedFields(null, { a: 1, b: 2 })).toBe('a b');
    expect(changedFields({ a: 1 }, null)).toBe('a');
    expect(changedFields({ a: 1, b: { c: [1, 2] }, d: 1 }, { a: 1, b: { c: [2, 1] }, e: 1 })).toBe('b d e');
    expect(changedFields({ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } })).toBe('');
  });
});

describe('event log paging: keyset cursor and the count', () => {
  it.each(['asc', 'desc'])(
    'walks the log (%s) by cursor: each event once, in the order offset paging shows, ties on time by id',
    async (order) => {
      const token = await f.signIn('admin@globex.test');
      // Events that share their time to the microsecond: the id decides between them.
      const at = new Date('2026-01-01T00:00:00Z');
      await insertEvents(
        [1, 2, 3, 4, 5].map((n) => ({
          tenantId: f.globex.id,
          at,
          actorName: 'pager@test',
          action: `paging.${order}`,
          objectType: 'paging',
          objectName: `event ${n}`,
        })),
      );
      const base = `/api/events/admin/globex?order=${order}`;
      const all = (await f.app.inject({ url: `${base}&limit=100`, headers: auth(token) })).json();
      expect(all.items.length).toBeGreaterThanOrEqual(5);
      expect(await idsByCursor(f, `${base}&limit=2`, auth(token))).toEqual(
        all.items.map((e: { id: string }) => e.id),
      );
      const filtered = `${base}&limit=2&action=paging.${order}`;
      const first = (await f.app.inject({ url: filtered, headers: auth(token) })).json();
      expect(first).toMatchObject({ total: 5, totalIsEstimate: false, nextCursor: expect.any(String) });
      const second = (
        await f.app.inject({
          url: `${filtered}&withTotal=false&cursor=${first.nextCursor}`,
          headers: auth(token),
        })
      ).json();
      expect(second.total).toBeNull();
      expect(await idsByCursor(f, filtered, auth(token))).toHaveLength(5);
    },
  );

  it('refuses a cursor made for the other order', async () => {
    const token = await f.signIn('admin@globex.test');
    const { nextCursor } = (
      await f.app.inject({ url: '/api/events/admin/globex?limit=1&order=asc', headers: auth(token) })
    ).json();
    const res = await f.app.inject({
      url: `/api/events/admin/globex?order=desc&cursor=${nextCursor}`,
      headers: auth(token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'query.cursor', message: 'validation.invalid' }]);
  });
});
