import { eq, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { groups, userGroups, users } from '../../db/schema';

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
