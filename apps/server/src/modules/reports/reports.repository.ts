import { and, asc, count, eq, lte } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { reportSchedules } from './reports.tables';

/** The weekly report mailings (migration 0032). */

export type ScheduleRow = typeof reportSchedules.$inferSelect;
export type ScheduleValues = Pick<
  ScheduleRow,
  'kind' | 'weekday' | 'hour' | 'timezone' | 'recipients' | 'language' | 'enabled' | 'nextRunAt'
>;

const ofTenant = (tenantId: string) => eq(reportSchedules.tenantId, tenantId);
const one = (tenantId: string, id: string) => and(ofTenant(tenantId), eq(reportSchedules.id, id));

export function listSchedules(tx: Tx, tenantId: string): Promise<ScheduleRow[]> {
  return tx
    .select()
    .from(reportSchedules)
    .where(ofTenant(tenantId))
    .orderBy(asc(reportSchedules.createdAt), asc(reportSchedules.id));
}

export async function countSchedules(tx: Tx, tenantId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(reportSchedules).where(ofTenant(tenantId));
  return Number(row.n);
}

export async function getSchedule(tx: Tx, tenantId: string, id: string): Promise<ScheduleRow | null> {
  const [row] = await tx.select().from(reportSchedules).where(one(tenantId, id));
  return row ?? null;
}

export async function insertSchedule(tx: Tx, tenantId: string, values: ScheduleValues): Promise<ScheduleRow> {
  const [row] = await tx
    .insert(reportSchedules)
    .values({ tenantId, ...values })
    .returning();
  return row;
}

export async function updateSchedule(
  tx: Tx,
  tenantId: string,
  id: string,
  values: ScheduleValues,
): Promise<ScheduleRow | null> {
  const [row] = await tx
    .update(reportSchedules)
    .set({ ...values, lastError: null, updatedAt: new Date() })
    .where(one(tenantId, id))
    .returning();
  return row ?? null;
}

export async function deleteSchedule(tx: Tx, tenantId: string, id: string): Promise<ScheduleRow | null> {
  const [row] = await tx.delete(reportSchedules).where(one(tenantId, id)).returning();
  return row ?? null;
}

/** Records how a mailing went: when, and why it failed (null: it went out). */
export async function recordRun(
  tx: Tx,
  tenantId: string,
  id: string,
  run: { at: Date; error: string | null },
): Promise<void> {
  await tx.update(reportSchedules).set({ lastRunAt: run.at, lastError: run.error }).where(one(tenantId, id));
}

/**
 * Claims the enabled schedules due at `now` across tenants (owner access: the runner works for every tenant),
 * oldest due first: locks them with FOR UPDATE SKIP LOCKED — a row another runner holds is skipped, not waited
 * for — and moves each one's next run on (`nextRunOf`) in the same transaction, so once this commits no other
 * runner finds them due. Answers the rows as they were claimed.
 */
export function claimDueSchedules(
  db: Db,
  now: Date,
  limit: number,
  nextRunOf: (row: ScheduleRow) => Date | null,
): Promise<ScheduleRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(reportSchedules)
      .where(and(eq(reportSchedules.enabled, true), lte(reportSchedules.nextRunAt, now)))
      .orderBy(asc(reportSchedules.nextRunAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    for (const row of due) {
      await tx
        .update(reportSchedules)
        .set({ nextRunAt: nextRunOf(row) })
        .where(one(row.tenantId, row.id));
    }
    return due;
  });
}
