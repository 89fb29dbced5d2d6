import { and, asc, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { afterKey, decodeCursor, encodeCursor, pageTotal } from '../../db/paging';
import { adminEvents, tenants } from '../../db/schema';

/** The newest events of a tenant. */
export async function recentEvents(tx: Tx, tenantId: string, limit: number) {
  return tx
    .select()
    .from(adminEvents)
    .where(eq(adminEvents.tenantId, tenantId))
    .orderBy(desc(adminEvents.at))
    .limit(limit);
}

// ---- Reading the log (/events/admin) ----

/** What the log can be filtered by (the contract's list and export queries). */
export interface EventFilter {
  actor?: string;
  /** Exact, or a prefix when it ends with a dot. */
  action?: string;
  objectType?: string;
  objectId?: string;
  /** ISO date-times, both inclusive. */
  from?: string;
  to?: string;
  /** Free text over actor, action, object id and name. */
  q?: string;
}

/** `%`, `_` and `\` are literal in a search, not patterns. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filterWhere(tenantId: string, filter: EventFilter): SQL {
  const conditions: SQL[] = [eq(adminEvents.tenantId, tenantId)];
  if (filter.actor) conditions.push(sql`lower(${adminEvents.actorName}) like ${likePattern(filter.actor)}`);
  if (filter.action) {
    conditions.push(
      filter.action.endsWith('.')
        ? sql`starts_with(${adminEvents.action}, ${filter.action})`
        : eq(adminEvents.action, filter.action),
    );
  }
  if (filter.objectType) conditions.push(eq(adminEvents.objectType, filter.objectType));
  if (filter.objectId) conditions.push(eq(adminEvents.objectId, filter.objectId));
  if (filter.from) conditions.push(gte(adminEvents.at, new Date(filter.from)));
  if (filter.to) conditions.push(lte(adminEvents.at, new Date(filter.to)));
  if (filter.q) {
    const p = likePattern(filter.q);
    conditions.push(sql`(lower(${adminEvents.actorName}) like ${p} or lower(${adminEvents.action}) like ${p}
      or lower(coalesce(${adminEvents.objectName}, '')) like ${p} or lower(coalesce(${adminEvents.objectId}, '')) like ${p})`);
  }
  return and(...conditions) as SQL;
}

const summaryColumns = {
  id: adminEvents.id,
  at: adminEvents.at,
  actorName: adminEvents.actorName,
  actingFrom: adminEvents.actingFrom,
  ip: adminEvents.ip,
  action: adminEvents.action,
  objectType: adminEvents.objectType,
  objectId: adminEvents.objectId,
  objectName: adminEvents.objectName,
};

/**
 * One page of the log, newest or oldest first: after `page.cursor` (keyset on time and id, flat cost at any depth)
 * or at `page.offset`, with the total that matched (counted up to the limit, estimated beyond, or skipped).
 */
export async function listEvents(
  tx: Tx,
  tenantId: string,
  filter: EventFilter,
  page: {
    limit: number;
    offset: number;
    order: 'asc' | 'desc';
    cursor?: string;
    withTotal?: 'true' | 'false';
  },
) {
  const where = filterWhere(tenantId, filter);
  const direction = page.order === 'asc' ? asc : desc;
  const key = page.cursor ? decodeCursor(page.cursor, 'at', page.order, 2) : null;
  const after = key
    ? afterKey(
        [sql`${adminEvents.at}`, sql`${adminEvents.id}`],
        [sql`${key[0]}::timestamptz`, sql`${key[1]}::uuid`],
        page.order,
      )
    : undefined;
  // One row more than the page tells whether another page follows.
  const rows = await tx
    .select({ ...summaryColumns, cursorAt: sql<string>`${adminEvents.at}::text` })
    .from(adminEvents)
    .where(after ? and(where, after) : where)
    .orderBy(direction(adminEvents.at), direction(adminEvents.id))
    .limit(page.limit + 1)
    .offset(page.cursor ? 0 : page.offset);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  const total = await pageTotal(tx, sql`from ${adminEvents} where ${where}`, { ...page, rows: items.length });
  return {
    items: items.map(({ cursorAt: _at, ...row }) => row),
    ...total,
    nextCursor:
      rows.length > page.limit && last ? encodeCursor('at', page.order, [last.cursorAt, last.id]) : null,
  };
}

/** One event with its before and after values, or null (also for another tenant's id). */
export async function getEvent(tx: Tx, tenantId: string, id: string) {
  const [row] = await tx
    .select()
    .from(adminEvents)
    .where(and(eq(adminEvents.tenantId, tenantId), eq(adminEvents.id, id)))
    .limit(1);
  return row ?? null;
}

/** Where the previous export chunk ended: the exact stored time (as text, microseconds kept) and id. */
export interface EventCursor {
  at: string;
  id: string;
}

/** The next `limit` events after `cursor` in the given order (keyset paging: flat cost at any depth). */
export async function eventChunk(
  tx: Tx,
  tenantId: string,
  filter: EventFilter,
  order: 'asc' | 'desc',
  cursor: EventCursor | null,
  limit: number,
) {
  const direction = order === 'asc' ? asc : desc;
  const after = cursor
    ? order === 'asc'
      ? sql`(${adminEvents.at}, ${adminEvents.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
      : sql`(${adminEvents.at}, ${adminEvents.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
    : undefined;
  return tx
    .select({
      ...summaryColumns,
      before: adminEvents.before,
      after: adminEvents.after,
      cursorAt: sql<string>`${adminEvents.at}::text`,
    })
    .from(adminEvents)
    .where(after ? and(filterWhere(tenantId, filter), after) : filterWhere(tenantId, filter))
    .orderBy(direction(adminEvents.at), direction(adminEvents.id))
    .limit(limit);
}

/**
 * Distinct values of an indexed column of the tenant's log by a recursive skip scan over
 * `(tenant_id, column, at)`: one index probe per distinct value instead of reading every event.
 */
async function distinctValues(tx: Tx, tenantId: string, column: 'action' | 'object_type') {
  const c = sql.identifier(column);
  const rows = await queryRows<{ value: string }>(
    tx,
    sql`with recursive v(value) as (
      (select ${c} from admin_events where tenant_id = ${tenantId} order by ${c} limit 1)
      union all
      select (select ${c} from admin_events where tenant_id = ${tenantId} and ${c} > v.value order by ${c} limit 1)
      from v where v.value is not null
    ) select value from v where value is not null limit 1000`,
  );
  return rows.map((r) => r.value);
}

export async function eventFacets(tx: Tx, tenantId: string) {
  const actions = await distinctValues(tx, tenantId, 'action');
  const objectTypes = await distinctValues(tx, tenantId, 'object_type');
  return { actions, objectTypes };
}

// ---- Retention ----

export async function getRetentionDays(tx: Tx, tenantId: string): Promise<number | null> {
  const [row] = await tx
    .select({ days: tenants.eventRetentionDays })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  return row?.days ?? null;
}

export async function setRetentionDays(tx: Tx, tenantId: string, days: number) {
  await tx
    .update(tenants)
    .set({ eventRetentionDays: days, updatedAt: new Date() })
    .where(eq(tenants.id, tenantId));
}

/** Every tenant with its retention: the purge job walks them (owner access, it spans tenants). */
export async function tenantRetentions(db: Db) {
  return db.select({ id: tenants.id, days: tenants.eventRetentionDays }).from(tenants);
}

/** Deletes a tenant's events older than `days`; returns how many went. */
export async function deleteEventsOlderThan(tx: Tx, tenantId: string, days: number): Promise<number> {
  const [row] = await queryRows<{ deleted: number }>(
    tx,
    sql`with d as (
      delete from admin_events
      where tenant_id = ${tenantId} and at < now() - make_interval(days => ${days}::int)
      returning 1
    ) select count(*)::int as deleted from d`,
  );
  return row?.deleted ?? 0;
}
