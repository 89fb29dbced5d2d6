import { and, count, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accessRequests } from './block-page.tables';

export type AccessRequestRow = typeof accessRequests.$inferSelect;
export type AccessRequestStatus = AccessRequestRow['status'];

const ofTenant = (tenantId: string) => eq(accessRequests.tenantId, tenantId);

/** Serialises the public form's writes per tenant, so the rate-limit counts of concurrent requests add up. */
export async function lockRequests(tx: Tx, tenantId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('access_requests'), hashtext(${tenantId}))`);
}

/** The creation times of the requests since `since`, oldest first: of one source, or of the whole tenant. */
export async function requestTimesSince(
  tx: Tx,
  tenantId: string,
  since: Date,
  sourceKey?: string,
): Promise<Date[]> {
  const rows = await tx
    .select({ at: accessRequests.createdAt })
    .from(accessRequests)
    .where(
      and(
        ofTenant(tenantId),
        gt(accessRequests.createdAt, since),
        sourceKey === undefined ? undefined : eq(accessRequests.sourceKey, sourceKey),
      ),
    )
    .orderBy(accessRequests.createdAt);
  return rows.map((r) => r.at);
}

/** A pending request of the same user (or, without one, the same source) for the same host. */
export async function findPending(
  tx: Tx,
  tenantId: string,
  who: { userId: string | null; sourceKey: string },
  host: string,
): Promise<AccessRequestRow | null> {
  const [row] = await tx
    .select()
    .from(accessRequests)
    .where(
      and(
        ofTenant(tenantId),
        eq(accessRequests.status, 'pending'),
        eq(accessRequests.host, host),
        who.userId ? eq(accessRequests.userId, who.userId) : eq(accessRequests.sourceKey, who.sourceKey),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insertRequest(
  tx: Tx,
  row: Omit<typeof accessRequests.$inferInsert, 'id' | 'status' | 'createdAt' | 'updatedAt'>,
): Promise<AccessRequestRow> {
  const [created] = await tx.insert(accessRequests).values(row).returning();
  return created;
}

export async function listRequests(
  tx: Tx,
  tenantId: string,
  query: { status?: AccessRequestStatus; limit: number; offset: number },
): Promise<{ rows: AccessRequestRow[]; total: number }> {
  const where = and(ofTenant(tenantId), query.status ? eq(accessRequests.status, query.status) : undefined);
  const rows = await tx
    .select()
    .from(accessRequests)
    .where(where)
    .orderBy(desc(accessRequests.createdAt), desc(accessRequests.id))
    .limit(query.limit)
    .offset(query.offset);
  const [{ total }] = await tx.select({ total: count() }).from(accessRequests).where(where);
  return { rows, total: Number(total) };
}

export async function countPending(tx: Tx, tenantId: string): Promise<number> {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(accessRequests)
    .where(and(ofTenant(tenantId), eq(accessRequests.status, 'pending')));
  return Number(n);
}

/** One request, locked for the decision. */
export async function getRequestForUpdate(tx: Tx, tenantId: string, id: string) {
  const [row] = await tx
    .select()
    .from(accessRequests)
    .where(and(ofTenant(tenantId), eq(accessRequests.id, id)))
    .for('update');
  return row ?? null;
}

export async function decideRequest(
  tx: Tx,
  tenantId: string,
  id: string,
  decision: {
    status: 'approved' | 'declined';
    decidedBy: string;
    expiresAt: Date | null;
    note: string | null;
  },
): Promise<AccessRequestRow> {
  const [row] = await tx
    .update(accessRequests)
    .set({ ...decision, decidedAt: new Date(), updatedAt: new Date() })
    .where(and(ofTenant(tenantId), eq(accessRequests.id, id)))
    .returning();
  return row;
}

/** The approvals that allow right now: what policy-core compiles (block-page.engine-source.ts). */
export async function activeApprovals(tx: Tx, tenantId: string, now: Date): Promise<AccessRequestRow[]> {
  return tx
    .select()
    .from(accessRequests)
    .where(and(ofTenant(tenantId), eq(accessRequests.status, 'approved'), gt(accessRequests.expiresAt, now)))
    .orderBy(accessRequests.createdAt, accessRequests.id);
}

/** Marks every tenant's approvals past their end expired (all tenants: the sweep); answers what it expired. */
export async function expireDue(db: Db, now: Date): Promise<AccessRequestRow[]> {
  const due = await db
    .select({ tenantId: accessRequests.tenantId, id: accessRequests.id })
    .from(accessRequests)
    .where(and(eq(accessRequests.status, 'approved'), lte(accessRequests.expiresAt, now)))
    .limit(1000);
  if (due.length === 0) return [];
  return db
    .update(accessRequests)
    .set({ status: 'expired', updatedAt: now })
    .where(
      and(
        eq(accessRequests.status, 'approved'),
        inArray(
          accessRequests.id,
          due.map((d) => d.id),
        ),
      ),
    )
    .returning();
}
