import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { groups, importJobs, userGroups, users } from '../../db/schema';

type FlagColumn = 'isprvaccess' | 'issiauser' | 'isxdrenabled';

/** Sets one access flag on many end users; returns how many rows changed. */
export async function setFlag(tx: Tx, tenantId: string, ids: string[], column: FlagColumn, value: boolean) {
  const rows = await tx
    .update(users)
    .set({ [column]: value, updatedAt: new Date() })
    .where(and(eq(users.tenantId, tenantId), eq(users.usertype, 0), inArray(users.id, ids)))
    .returning({ id: users.id });
  return rows.length;
}

/** Adds end users to a group (already members are left alone); returns how many were added. */
export async function addToGroup(tx: Tx, tenantId: string, ids: string[], groupId: string) {
  const rows = await queryRows<{ user_id: string }>(
    tx,
    sql`insert into user_groups (tenant_id, user_id, group_id)
        select tenant_id, id, ${groupId} from users
        where tenant_id = ${tenantId} and usertype = 0 and id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        on conflict do nothing returning user_id`,
  );
  return rows.length;
}

export async function removeFromGroup(tx: Tx, tenantId: string, ids: string[], groupId: string) {
  const rows = await tx
    .delete(userGroups)
    .where(
      and(
        eq(userGroups.tenantId, tenantId),
        eq(userGroups.groupId, groupId),
        inArray(userGroups.userId, ids),
      ),
    )
    .returning({ id: userGroups.userId });
  return rows.length;
}

/** Every group of the tenant (id and name), for writing and reading group names in CSV files. */
export function allGroups(tx: Tx, tenantId: string) {
  return tx.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.tenantId, tenantId));
}

/** Which of these lower-case usernames exist anywhere (usernames are unique platform-wide: owner access). */
export async function takenUsernames(db: Db, names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select lower(username) as name from users where lower(username) in (${sql.join(
      names.map((n) => sql`${n}`),
      sql`, `,
    )})`,
  );
  return new Set(rows.map((r) => r.name));
}

export async function insertUsers(tx: Tx, values: Array<typeof users.$inferInsert>) {
  return tx.insert(users).values(values).returning({ id: users.id, username: users.username });
}

export async function insertMemberships(tx: Tx, values: Array<typeof userGroups.$inferInsert>) {
  if (values.length > 0) await tx.insert(userGroups).values(values).onConflictDoNothing();
}

export async function insertJob(tx: Tx, values: typeof importJobs.$inferInsert) {
  const [row] = await tx.insert(importJobs).values(values).returning();
  return row;
}

export async function updateJob(
  tx: Tx,
  tenantId: string,
  id: string,
  values: Partial<typeof importJobs.$inferInsert>,
) {
  const [row] = await tx
    .update(importJobs)
    .set(values)
    .where(and(eq(importJobs.tenantId, tenantId), eq(importJobs.id, id)))
    .returning();
  return row;
}

export async function findJob(tx: Tx, tenantId: string, id: string) {
  const [row] = await tx
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.tenantId, tenantId), eq(importJobs.id, id)))
    .limit(1);
  return row ?? null;
}
