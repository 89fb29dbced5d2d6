import type { UserListQuery } from '@palisade/contracts';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { groups, userGroups, users } from '../../db/schema';

/** Only end users (usertype 0) are users in this module's sense (spec §6). */
const endUsers = (tenantId: string) => and(eq(users.tenantId, tenantId), eq(users.usertype, 0));

// Written out in full: inside a sub-query drizzle leaves column names unqualified.
const groupIds = sql<string[]>`coalesce(array(
  select ug.group_id::text from user_groups ug
  where ug.tenant_id = users.tenant_id and ug.user_id = users.id
  order by ug.group_id), '{}')`;

const columns = {
  id: users.id,
  username: users.username,
  firstname: users.firstname,
  lastname: users.lastname,
  email: users.email,
  connstatus: users.connstatus,
  isprvaccess: users.isprvaccess,
  issiauser: users.issiauser,
  isxdrenabled: users.isxdrenabled,
  suci: users.suci,
  usertype: users.usertype,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  groups: groupIds,
};

export type UserRow = {
  [K in keyof typeof columns]: K extends 'groups'
    ? string[]
    : (typeof users.$inferSelect)[K & keyof typeof users.$inferSelect];
};

const SORTS = {
  username: [users.username],
  email: [users.email],
  fullname: [users.firstname, users.lastname],
  connstatus: [users.connstatus, users.username],
  createdAt: [users.createdAt],
} as const;

/** `%`, `_` and `\` are literal in a search, not patterns. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The end users of a tenant whose username, name or e-mail contains `q` (all of them without `q`): the list's
 * search, and the selection of a bulk change over a whole search, so both always mean the same users.
 */
export function matchingEndUsers(tenantId: string, q: string | undefined) {
  return q ? and(endUsers(tenantId), sql`${users.search} like ${likePattern(q)}`) : endUsers(tenantId);
}

/** One page of end users plus the total that matched. */
export async function listUsers(tx: Tx, tenantId: string, query: UserListQuery) {
  const where = matchingEndUsers(tenantId, query.q);
  const direction = query.order === 'desc' ? desc : asc;
  const orderBy = [...SORTS[query.sort].map((c) => direction(c)), direction(users.id)];
  // Pick the page's ids first: PostgreSQL computes the select list (the groups sub-query) for every row it
  // skips with OFFSET, which made deep pages of a large tenant slow.
  const pageIds = tx
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(...orderBy)
    .limit(query.limit)
    .offset(query.offset);
  const [items, [{ total }]] = await Promise.all([
    tx
      .select(columns)
      .from(users)
      .where(and(eq(users.tenantId, tenantId), inArray(users.id, pageIds)))
      .orderBy(...orderBy),
    tx.select({ total: count() }).from(users).where(where),
  ]);
  return { items: items as UserRow[], total: Number(total) };
}

export async function getUser(tx: Tx, tenantId: string, id: string): Promise<UserRow | null> {
  const [row] = await tx
    .select(columns)
    .from(users)
    .where(and(endUsers(tenantId), eq(users.id, id)))
    .limit(1);
  return (row as UserRow | undefined) ?? null;
}

/**
 * Usernames are unique platform-wide, so this look-up needs owner access (row-level security would hide
 * other tenants). The unique index stays the final guard; this gives the friendly error first.
 */
export async function usernameTaken(db: Db, username: string, exceptId?: string): Promise<boolean> {
  const rows = await queryRows<{ taken: boolean }>(
    db,
    sql`select exists(select 1 from users where lower(username) = ${username.toLowerCase()} ${exceptId ? sql`and id <> ${exceptId}` : sql``}) as taken`,
  );
  return Boolean(rows[0]?.taken);
}

export async function insertUser(tx: Tx, values: typeof users.$inferInsert): Promise<string> {
  const [row] = await tx.insert(users).values(values).returning({ id: users.id });
  return row.id;
}

export async function updateUser(
  tx: Tx,
  tenantId: string,
  id: string,
  values: Partial<typeof users.$inferInsert>,
) {
  await tx
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(and(endUsers(tenantId), eq(users.id, id)));
}

/** Deletes end users by id; returns the rows that were deleted. */
export async function deleteUsers(tx: Tx, tenantId: string, ids: string[]) {
  return tx
    .delete(users)
    .where(and(endUsers(tenantId), inArray(users.id, ids)))
    .returning({ id: users.id, username: users.username });
}

/** The ids among `ids` that are groups of the tenant. */
export async function existingGroupIds(tx: Tx, tenantId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.tenantId, tenantId), inArray(groups.id, ids)));
  return new Set(rows.map((r) => r.id));
}

export async function setUserGroups(tx: Tx, tenantId: string, userId: string, groupIdList: string[]) {
  await tx.delete(userGroups).where(and(eq(userGroups.tenantId, tenantId), eq(userGroups.userId, userId)));
  if (groupIdList.length > 0) {
    await tx.insert(userGroups).values(groupIdList.map((groupId) => ({ tenantId, userId, groupId })));
  }
}

export async function listGroupOptions(tx: Tx, tenantId: string) {
  return tx
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(eq(groups.tenantId, tenantId))
    .orderBy(groups.name)
    .limit(1000);
}
