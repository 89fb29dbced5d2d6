import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { sessions, users } from '../../db/schema';

const columns = {
  id: users.id,
  username: users.username,
  firstname: users.firstname,
  lastname: users.lastname,
  role: users.role,
  customRoleId: users.customRoleId,
  isSuspended: users.isSuspended,
  isEmailVerified: users.isEmailVerified,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
  createdAt: users.createdAt,
};

export type AdminRow = Awaited<ReturnType<typeof getAdmin>> & {};

const admins = (tenantId: string) => and(eq(users.tenantId, tenantId), eq(users.usertype, 1));

export async function listAdmins(
  tx: Tx,
  tenantId: string,
  page: { limit: number; offset: number; q?: string },
) {
  const where = and(
    admins(tenantId),
    page.q
      ? sql`${users.search} like ${`%${page.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`
      : undefined,
  );
  const [items, [{ total }]] = await Promise.all([
    tx
      .select(columns)
      .from(users)
      .where(where)
      .orderBy(asc(users.username))
      .limit(page.limit)
      .offset(page.offset),
    tx.select({ total: count() }).from(users).where(where),
  ]);
  return { items, total: Number(total) };
}

export async function getAdmin(tx: Tx, tenantId: string, id: string) {
  const [row] = await tx
    .select(columns)
    .from(users)
    .where(and(admins(tenantId), eq(users.id, id)))
    .limit(1);
  return row ?? null;
}

export async function insertAdmin(tx: Tx, values: typeof users.$inferInsert) {
  const [row] = await tx.insert(users).values(values).returning({ id: users.id });
  return row.id;
}

export async function setSuspended(tx: Tx, tenantId: string, id: string, isSuspended: boolean) {
  await tx
    .update(users)
    .set({ isSuspended, updatedAt: new Date() })
    .where(and(admins(tenantId), eq(users.id, id)));
  // A suspended administrator is signed out everywhere at once.
  if (isSuspended)
    await tx.delete(sessions).where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, id)));
}

export async function deleteAdmin(tx: Tx, tenantId: string, id: string) {
  await tx.delete(users).where(and(admins(tenantId), eq(users.id, id)));
}

export async function countActiveOwners(tx: Tx, tenantId: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(admins(tenantId), eq(users.role, 'owner'), eq(users.isSuspended, false)));
  return Number(row.n);
}

/** Every administrator with whether they have a second factor (the security-compliance report). */
export function listAdminFacts(tx: Tx, tenantId: string) {
  return tx
    .select({ ...columns, isTotpEnabled: users.isTotpEnabled })
    .from(users)
    .where(admins(tenantId))
    .orderBy(asc(users.username));
}
