import { and, asc, count, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { reportMails, reportRecipients, reportSchedules } from './reports.tables';

/**
 * The weekly report mailings (migration 0032), their outside recipients and the mails counted for the tenant's
 * quota (0041).
 */

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
    .set({ ...values, lastError: null, lastErrorCode: null, updatedAt: new Date() })
    .where(one(tenantId, id))
    .returning();
  return row ?? null;
}

export async function deleteSchedule(tx: Tx, tenantId: string, id: string): Promise<ScheduleRow | null> {
  const [row] = await tx.delete(reportSchedules).where(one(tenantId, id)).returning();
  return row ?? null;
}

/** The language of a schedule of the tenant that names this address, or null when none does. */
export async function scheduleNaming(
  tx: Tx,
  tenantId: string,
  email: string,
): Promise<{ language: 'en' | 'de' } | null> {
  const [row] = await tx
    .select({ language: reportSchedules.language })
    .from(reportSchedules)
    .where(and(ofTenant(tenantId), sql`${email} = any(${reportSchedules.recipients})`))
    .orderBy(asc(reportSchedules.createdAt))
    .limit(1);
  return row ?? null;
}

/** Records how a mailing went: when, and why it failed (null: it went out). */
export async function recordRun(
  tx: Tx,
  tenantId: string,
  id: string,
  run: { at: Date; error: string | null; code?: ScheduleRow['lastErrorCode'] },
): Promise<void> {
  await tx
    .update(reportSchedules)
    .set({ lastRunAt: run.at, lastError: run.error, lastErrorCode: run.code ?? null })
    .where(one(tenantId, id));
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

// ─── Recipients ─────────────────────────────────────────────────────────────────────────────────────────────

export type RecipientRow = typeof reportRecipients.$inferSelect;

/** The tenant's recipient rows of these addresses (lower-case, as the contract stores them). */
export function recipientsOf(tx: Tx, tenantId: string, emails: readonly string[]): Promise<RecipientRow[]> {
  if (emails.length === 0) return Promise.resolve([]);
  return tx
    .select()
    .from(reportRecipients)
    .where(and(eq(reportRecipients.tenantId, tenantId), inArray(reportRecipients.email, [...emails])));
}

/** A new confirmation link of a recipient: the hash of its secret, its expiry and when it is mailed. */
export interface RecipientLink {
  tokenHash: string;
  tokenExpiresAt: Date;
  mailedAt: Date;
}

/**
 * Adds the addresses as waiting for confirmation, each with its link; an address the tenant has already is left
 * as it is (two saves at once mail it once). Answers the addresses added.
 */
export async function insertPendingRecipients(
  tx: Tx,
  tenantId: string,
  rows: (RecipientLink & { email: string; language: 'en' | 'de' })[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const added = await tx
    .insert(reportRecipients)
    .values(rows.map((row) => ({ tenantId, ...row })))
    .onConflictDoNothing()
    .returning({ email: reportRecipients.email });
  return added.map((row) => row.email);
}

/** Gives a recipient a new link (the old one stops working), or adds it with that link; answers the row. */
export async function upsertRecipientLink(
  tx: Tx,
  tenantId: string,
  email: string,
  language: 'en' | 'de',
  link: RecipientLink,
): Promise<RecipientRow> {
  const [row] = await tx
    .insert(reportRecipients)
    .values({ tenantId, email, language, ...link })
    .onConflictDoUpdate({
      target: [reportRecipients.tenantId, reportRecipients.email],
      set: { ...link, updatedAt: new Date() },
    })
    .returning();
  return row;
}

/** Marks a link as not mailed (sending it failed), so the screen offers to send it again at once. */
export async function unmarkMailed(tx: Tx, tenantId: string, email: string, mailedAt: Date): Promise<void> {
  await tx
    .update(reportRecipients)
    .set({ mailedAt: null, updatedAt: new Date() })
    .where(
      and(
        eq(reportRecipients.tenantId, tenantId),
        eq(reportRecipients.email, email),
        eq(reportRecipients.mailedAt, mailedAt),
      ),
    );
}

/** The recipient whose link has this hash, in any tenant (owner access: the confirm link carries no tenant). */
export async function findRecipientByToken(db: Db, tokenHash: string): Promise<RecipientRow | null> {
  const [row] = await db.select().from(reportRecipients).where(eq(reportRecipients.tokenHash, tokenHash));
  return row ?? null;
}

/**
 * Confirms the recipient and spends its link, if the link is still this one and valid at `at` (a link used or
 * replaced meanwhile confirms nothing). Answers the row, or null.
 */
export async function confirmRecipient(
  tx: Tx,
  tenantId: string,
  tokenHash: string,
  at: Date,
): Promise<RecipientRow | null> {
  const [row] = await tx
    .update(reportRecipients)
    .set({ verifiedAt: at, tokenHash: null, tokenExpiresAt: null, updatedAt: at })
    .where(
      and(
        eq(reportRecipients.tenantId, tenantId),
        eq(reportRecipients.tokenHash, tokenHash),
        gt(reportRecipients.tokenExpiresAt, at),
      ),
    )
    .returning();
  return row ?? null;
}

// ─── Mail quota ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Holds the tenant's mail count until the transaction ends, so two mailings at once (on any instance) count one
 * after the other and cannot both take the last of the quota.
 */
export async function lockMailQuota(tx: Tx, tenantId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('report_mails'), hashtext(${tenantId}))`);
}

/** Forgets the tenant's mails sent before `before` (no quota window reaches them). */
export async function purgeMails(tx: Tx, tenantId: string, before: Date): Promise<void> {
  await tx.delete(reportMails).where(and(eq(reportMails.tenantId, tenantId), lt(reportMails.sentAt, before)));
}

/** When the tenant's mails since `since` were sent, oldest first. */
export async function mailTimesSince(tx: Tx, tenantId: string, since: Date): Promise<Date[]> {
  const rows = await tx
    .select({ sentAt: reportMails.sentAt })
    .from(reportMails)
    .where(and(eq(reportMails.tenantId, tenantId), gt(reportMails.sentAt, since)))
    .orderBy(asc(reportMails.sentAt));
  return rows.map((row) => row.sentAt);
}

/** Counts `n` mails of `kind` sent at `at`. */
export async function insertMails(
  tx: Tx,
  tenantId: string,
  kind: 'report' | 'verification',
  n: number,
  at: Date,
): Promise<void> {
  if (n <= 0) return;
  await tx.insert(reportMails).values(Array.from({ length: n }, () => ({ tenantId, kind, sentAt: at })));
}
