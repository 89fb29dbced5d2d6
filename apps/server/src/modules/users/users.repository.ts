import type { UserListQuery } from '@palisade/contracts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { afterKey, decodeCursor, encodeCursor, pageTotal } from '../../db/paging';
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
  isSuspended: users.isSuspended,
  statusReason: users.statusReason,
  statusChangedBy: users.statusChangedBy,
  statusChangedAt: users.statusChangedAt,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  groups: groupIds,
};

export type UserRow = {
  [K in keyof typeof columns]: K extends 'groups'
    ? string[]
    : (typeof users.$inferSelect)[K & keyof typeof users.$inferSelect];
};

/** `%`, `_` and `\` are literal in a search, not patterns. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The end users of a tenant whose username, name or e-mail contains `q` (all of them without `q`): the list's
 * search, and the selection of a bulk change over a whole search, so both always mean the same users.
 */
export function matchingEndUsers(tenantId: string, q: string | undefined) {
  return q ? and(endUsers(tenantId), sql`${users.search} like ${likePattern(q)}`) : endUsers(tenantId);
}

/** Each sort's columns with their values as a cursor keeps them (text; timestamps keep their microseconds). */
const SORT_KEYS = {
  username: [{ column: users.username, text: sql<string>`${users.username}`, cast: sql`` }],
  email: [{ column: users.email, text: sql<string>`${users.email}`, cast: sql`` }],
  fullname: [
    { column: users.firstname, text: sql<string>`${users.firstname}`, cast: sql`` },
    { column: users.lastname, text: sql<string>`${users.lastname}`, cast: sql`` },
  ],
  connstatus: [
    { column: users.connstatus, text: sql<string>`${users.connstatus}`, cast: sql`` },
    { column: users.username, text: sql<string>`${users.username}`, cast: sql`` },
  ],
  createdAt: [
    { column: users.createdAt, text: sql<string>`${users.createdAt}::text`, cast: sql`::timestamptz` },
  ],
} as const;

/**
 * One page of end users plus the total that matched: after `query.cursor` (keyset, flat cost at any depth) or at
 * `query.offset`; counted up to the limit and estimated beyond (see db/paging), or not at all on request.
 */
export async function listUsers(
  tx: Tx,
  tenantId: string,
  query: UserListQuery,
  options: { isExactTotal?: boolean } = {},
) {
  const where = matchingEndUsers(tenantId, query.q);
  const direction = query.order === 'desc' ? desc : asc;
  const keys = [
    ...SORT_KEYS[query.sort],
    { column: users.id, text: sql<string>`${users.id}::text`, cast: sql`::uuid` },
  ];
  const orderBy = keys.map((k) => direction(k.column));
  const after = query.cursor
    ? afterKey(
        keys.map((k) => sql`${k.column}`),
        decodeCursor(query.cursor, query.sort, query.order, keys.length).map(
          (value, i) => sql`${value}${keys[i].cast}`,
        ),
        query.order,
      )
    : undefined;
  // Pick the page's ids first: PostgreSQL computes the select list (the groups sub-query) for every row it
  // skips with OFFSET, which made deep pages of a large tenant slow. One row more than the page tells whether
  // another page follows.
  const pageIds = tx
    .select({ id: users.id })
    .from(users)
    .where(after ? and(where, after) : where)
    .orderBy(...orderBy)
    .limit(query.limit + 1)
    .offset(query.cursor ? 0 : query.offset);
  const rows = await tx
    .select({
      ...columns,
      cursorKey: sql<string[]>`array[${sql.join(
        keys.map((k) => k.text),
        sql`, `,
      )}]`,
    })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.id, pageIds)))
    .orderBy(...orderBy);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const total = await pageTotal(tx, sql`from ${users} where ${where}`, {
    ...query,
    rows: page.length,
    isExact: options.isExactTotal,
  });
  return {
    items: page.map(({ cursorKey: _key, ...row }) => row) as UserRow[],
    ...total,
    nextCursor: hasMore && last ? encodeCursor(query.sort, query.order, last.cursorKey) : null,
  };
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

/** The names of the tenant's groups among `ids`, by id (the event log names groups, not ids). */
export async function groupNamesById(tx: Tx, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(and(eq(groups.tenantId, tenantId), inArray(groups.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
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

/** Disables or enables an end user's account, with why and by whom. */
export async function setUserStatus(
  tx: Tx,
  tenantId: string,
  id: string,
  change: { isDisabled: boolean; reason: string | null; by: string },
) {
  await tx
    .update(users)
    .set({
      isSuspended: change.isDisabled,
      statusReason: change.reason,
      statusChangedBy: change.by,
      statusChangedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(endUsers(tenantId), eq(users.id, id)));
}
