import { EXACT_COUNT_LIMIT } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';
import { countUpToLimit, decodeCursor, encodeCursor, pageTotal } from './paging';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

describe('countUpToLimit', () => {
  const groupsOf = (tenantId: string) => sql`from groups where tenant_id = ${tenantId}`;

  it('counts exactly up to the limit, and estimates past it, flagged and never below the limit', async () => {
    const { id } = f.acme;
    const exact = await f.database.tenantTx(id, (tx) => countUpToLimit(tx, groupsOf(id)));
    expect(exact.totalIsEstimate).toBe(false);
    expect(exact.total).toBe(f.acme.groupIds.length);
    expect(exact.total).toBeGreaterThan(1);

    const atLimit = await f.database.tenantTx(id, (tx) => countUpToLimit(tx, groupsOf(id), exact.total ?? 0));
    expect(atLimit).toEqual({ total: exact.total, totalIsEstimate: false });

    const past = await f.database.tenantTx(id, (tx) => countUpToLimit(tx, groupsOf(id), 1));
    expect(past.totalIsEstimate).toBe(true);
    expect(past.total).toBeGreaterThanOrEqual(2);
  });
});

describe('pageTotal', () => {
  const from = (tenantId: string) => sql`from groups where tenant_id = ${tenantId}`;

  it('does not count when asked not to, nor when the page shows where the list ends', async () => {
    const { id } = f.acme;
    const total = (page: Parameters<typeof pageTotal>[2]) =>
      f.database.tenantTx(id, (tx) => pageTotal(tx, from(id), page));
    expect(await total({ withTotal: 'false', offset: 0, rows: 25, limit: 25 })).toEqual({
      total: null,
      totalIsEstimate: false,
    });
    // A short page at a known offset: the list ends there (even if the count would say otherwise).
    expect(await total({ offset: 40, rows: 3, limit: 25 })).toEqual({ total: 43, totalIsEstimate: false });
    // Past the end, or after a cursor, the offset says nothing: counted.
    const counted = { total: f.acme.groupIds.length, totalIsEstimate: false };
    expect(await total({ offset: 40, rows: 0, limit: 25 })).toEqual(counted);
    expect(await total({ offset: 0, cursor: 'x', rows: 1, limit: 25 })).toEqual(counted);
  });
});

describe('cursors', () => {
  it('round-trip the sort key, and refuse another sort, order or length', () => {
    const cursor = encodeCursor('fullname', 'desc', ['Ada', 'Lovelace', 'id-1']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 'fullname', 'desc', 3)).toEqual(['Ada', 'Lovelace', 'id-1']);
    for (const [sort, order, length] of [
      ['username', 'desc', 3],
      ['fullname', 'asc', 3],
      ['fullname', 'desc', 2],
    ] as const) {
      expect(() => decodeCursor(cursor, sort, order, length)).toThrow(
        expect.objectContaining({ details: [{ path: 'query.cursor', message: 'validation.invalid' }] }),
      );
    }
    expect(() => decodeCursor('e30', 'fullname', 'desc', 3)).toThrow();
    expect(() => decodeCursor('%%%', 'fullname', 'desc', 3)).toThrow();
  });
});

describe('a list past the exact-count limit', () => {
  it('answers the first page with an estimated total, flagged, and pages on by cursor', async () => {
    // The event log of globex grows past the limit (the API only reads it; written straight in).
    await f.database.db.execute(sql`insert into admin_events (tenant_id, actor_name, action, object_type, at)
      select ${f.globex.id}, 'bulk@test', 'bulk.test', 'bulk', now() - make_interval(secs => i)
      from generate_series(1, ${EXACT_COUNT_LIMIT + 50}) i`);
    await f.database.db.execute(sql`analyze admin_events`);
    const token = await f.signIn('admin@globex.test');
    const first = await f.app.inject({ url: '/api/events/admin/globex?limit=25', headers: auth(token) });
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.items).toHaveLength(25);
    expect(page.totalIsEstimate).toBe(true);
    expect(page.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    // The planner's estimate of a freshly analysed table is close to the truth.
    expect(Math.abs(page.total - (EXACT_COUNT_LIMIT + 50))).toBeLessThan(EXACT_COUNT_LIMIT / 10);

    const next = await f.app.inject({
      url: `/api/events/admin/globex?limit=25&withTotal=false&cursor=${page.nextCursor}`,
      headers: auth(token),
    });
    expect(next.json().total).toBeNull();
    expect(next.json().items[0].id).not.toBe(page.items[24].id);

    // A filter with few matches (more than a page) is counted exactly, even on this log.
    await f.database.db.execute(sql`insert into admin_events (tenant_id, actor_name, action, object_type)
      select ${f.globex.id}, 'few@test', 'few.test', 'few' from generate_series(1, 3)`);
    const few = (
      await f.app.inject({ url: '/api/events/admin/globex?limit=2&action=few.test', headers: auth(token) })
    ).json();
    expect(few).toMatchObject({ total: 3, totalIsEstimate: false });
  });
});
