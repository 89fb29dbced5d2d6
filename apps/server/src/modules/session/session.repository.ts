import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { sessions, tenants, transactions, users } from '../../db/schema';

/** Owner-level look-ups for sign-in: the tenant is not known until the user is found. */
export async function findUserByUsername(db: Db | Tx, username: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

export async function findUser(db: Db | Tx, tenantId: string, id: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findTenantById(db: Db | Tx, id: string) {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, id)).limit(1);
  return row ?? null;
}

export async function findTenantByName(db: Db | Tx, name: string) {
  const [row] = await db.select().from(tenants).where(eq(tenants.name, name.toLowerCase())).limit(1);
  return row ?? null;
}

/** Names of the tenants an administrator manages besides its own. */
export async function managedTenantNames(db: Db, role: string, tenantId: string): Promise<string[]> {
  if (role === 'platform_admin') {
    const rows = await db
      .select({ name: tenants.name })
      .from(tenants)
      .where(inArray(tenants.kind, ['partner', 'customer']))
      .orderBy(tenants.name)
      .limit(500);
    return rows.map((r) => r.name);
  }
  if (role === 'partner_admin') {
    const rows = await db
      .select({ name: tenants.name })
      .from(tenants)
      .where(eq(tenants.parentId, tenantId))
      .orderBy(tenants.name);
    return rows.map((r) => r.name);
  }
  return [];
}

export async function insertSession(db: Db | Tx, row: typeof sessions.$inferInsert) {
  await db.insert(sessions).values(row);
}

export async function deleteSession(db: Db | Tx, idHash: string) {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

export async function sessionExpiry(db: Db, idHash: string): Promise<Date | null> {
  const [row] = await db
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.idHash, idHash))
    .limit(1);
  return row?.expiresAt ?? null;
}

export async function insertTransaction(db: Db | Tx, row: typeof transactions.$inferInsert) {
  await db.insert(transactions).values(row);
}

export async function findTransaction(db: Db | Tx, id: string) {
  const [row] = await db.select().from(transactions).where(eq(transactions.id, id)).limit(1);
  return row ?? null;
}

export async function completeTransaction(db: Db | Tx, id: string) {
  await db
    .update(transactions)
    .set({ status: 'completed', completedAt: new Date() })
    .where(
      and(
        eq(transactions.id, id),
        eq(transactions.status, 'pending'),
        gt(transactions.expiresAt, sql`now()`),
      ),
    );
}

export async function updateUser(
  db: Db | Tx,
  tenantId: string,
  id: string,
  values: Partial<typeof users.$inferInsert>,
) {
  await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
}
