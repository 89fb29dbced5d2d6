import type { GroupListQuery, GroupMembersQuery } from '@palisade/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { afterKey, decodeCursor, encodeCursor, pageTotal } from '../../db/paging';
import { groups, userGroups, users } from '../../db/schema';

/** A group as stored, with its member count. */
export interface GroupRow {
  id: string;
  name: string;
  description: string;
  memberCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** `%`, `_` and `\` are literal in a search, not patterns. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const toRow = (row: Record<string, unknown>): GroupRow => ({
  id: String(row.id),
  name: String(row.name),
  description: String(row.description),
  memberCount: Number(row.member_count ?? 0),
  createdAt: new Date(row.created_at as string | Date),
  updatedAt: new Date(row.updated_at as string | Date),
});

/** The groups of `ids` with their member counts; the counts are grouped over these ids only. */
async function groupsWithCounts(tx: Tx, tenantId: string, ids: string[]): Promise<Map<string, GroupRow>> {
  if (ids.length === 0) return new Map();
  const idList = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select g.id, g.name, g.description, g.created_at, g.updated_at, coalesce(m.member_count, 0) as member_count
      from groups g
      left join (
        select group_id, count(*) as member_count from user_groups
        where tenant_id = ${tenantId} and group_id in (${idList})
        group by group_id
      ) m on m.group_id = g.id
      where g.tenant_id = ${tenantId} and g.id in (${idList})`,
  );
  return new Map(rows.map((row) => [String(row.id), toRow(row)]));
}

/** Each sort's key: the expressions it orders by, as text for a cursor, and the casts back. */
const GROUP_SORT_KEYS = {
  name: [{ expr: sql`lower(g.name)`, cast: sql`` }],
  createdAt: [
    { expr: sql`g.created_at`, cast: sql`::timestamptz` },
    { expr: sql`g.id`, cast: sql`::uuid` },
  ],
  memberCount: [
    { expr: sql`coalesce(m.member_count, 0)`, cast: sql`::bigint` },
    { expr: sql`lower(g.name)`, cast: sql`` },
  ],
} as const;

/**
 * One page of groups plus the total that matched, after `query.cursor` (keyset) or at `query.offset`. The page's
 * ids are picked first; member counts are then counted for those ids only, so a tenant with 10 000 groups costs
 * one index walk and one small count. Only the member-count sort has to count every group's members, through
 * the (tenant, group, user) index.
 */
export async function listGroups(tx: Tx, tenantId: string, query: GroupListQuery) {
  const search = query.q
    ? sql`and (lower(g.name) like ${likePattern(query.q)} or lower(g.description) like ${likePattern(query.q)})`
    : sql``;
  const dir = query.order === 'desc' ? sql`desc` : sql`asc`;
  // Names are unique ignoring case, so lower(name) alone is a total order (and walks the groups_name index).
  const keys = GROUP_SORT_KEYS[query.sort];
  const orderBy = sql.join(
    keys.map((k) => sql`${k.expr} ${dir}`),
    sql`, `,
  );
  const after = query.cursor
    ? sql`and ${afterKey(
        keys.map((k) => k.expr),
        decodeCursor(query.cursor, query.sort, query.order, keys.length).map(
          (value, i) => sql`${value}${keys[i].cast}`,
        ),
        query.order,
      )}`
    : sql``;
  const counts =
    query.sort === 'memberCount'
      ? sql`left join (
          select group_id, count(*) as member_count from user_groups where tenant_id = ${tenantId} group by group_id
        ) m on m.group_id = g.id`
      : sql``;
  // One row more than the page tells whether another page follows.
  const pageRows = await queryRows<{ id: string; cursor_key: string[] }>(
    tx,
    sql`select g.id, array[${sql.join(
      keys.map((k) => sql`${k.expr}::text`),
      sql`, `,
    )}] as cursor_key
      from groups g ${counts}
      where g.tenant_id = ${tenantId} ${search} ${after}
      order by ${orderBy}
      limit ${query.limit + 1} offset ${query.cursor ? 0 : query.offset}`,
  );
  const page = pageRows.slice(0, query.limit);
  const ids = page.map((row) => String(row.id));
  const byId = await groupsWithCounts(tx, tenantId, ids);
  const total = await pageTotal(tx, sql`from groups g where g.tenant_id = ${tenantId} ${search}`, {
    ...query,
    rows: page.length,
  });
  const last = page.at(-1);
  return {
    items: ids.map((id) => byId.get(id)).filter((row): row is GroupRow => row !== undefined),
    ...total,
    nextCursor:
      pageRows.length > query.limit && last ? encodeCursor(query.sort, query.order, last.cursor_key) : null,
  };
}

export async function getGroup(tx: Tx, tenantId: string, id: string): Promise<GroupRow | null> {
  return (await groupsWithCounts(tx, tenantId, [id])).get(id) ?? null;
}

/** Whether another group of the tenant has this name, ignoring case. */
export async function nameTaken(tx: Tx, tenantId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await queryRows<{ taken: boolean }>(
    tx,
    sql`select exists(
      select 1 from groups where tenant_id = ${tenantId} and lower(name) = ${name.toLowerCase()}
      ${exceptId ? sql`and id <> ${exceptId}` : sql``}
    ) as taken`,
  );
  return Boolean(rows[0]?.taken);
}

export async function insertGroup(
  tx: Tx,
  tenantId: string,
  values: { name: string; description: string },
): Promise<string> {
  const [row] = await tx
    .insert(groups)
    .values({ tenantId, ...values })
    .returning({ id: groups.id });
  return row.id;
}

export async function updateGroup(
  tx: Tx,
  tenantId: string,
  id: string,
  values: { name?: string; description?: string },
) {
  await tx
    .update(groups)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(groups.tenantId, tenantId), eq(groups.id, id)));
}

/** Deletes groups by id (memberships cascade); returns what was deleted, with the member counts it had. */
export async function deleteGroups(tx: Tx, tenantId: string, ids: string[]) {
  const before = await groupsWithCounts(tx, tenantId, ids);
  if (before.size === 0) return [];
  const deleted = await tx
    .delete(groups)
    .where(and(eq(groups.tenantId, tenantId), inArray(groups.id, [...before.keys()])))
    .returning({ id: groups.id });
  return deleted.map((row) => before.get(row.id)!);
}

/** One page of a group's end users (by username) after `query.cursor` or at `query.offset`, with the total. */
export async function listMembers(tx: Tx, tenantId: string, groupId: string, query: GroupMembersQuery) {
  const search = query.q ? sql`and u.search like ${likePattern(query.q)}` : sql``;
  const dir = query.order === 'desc' ? sql`desc` : sql`asc`;
  // The page walks the users by username, each checked for membership: a large group's first page is found
  // after a few hundred index entries, where joining first sorted every member (10 000) before taking 25 (the
  // planner still starts from the memberships when the group is small). Counting goes the other way, from the
  // group's memberships, which is cheaper when every member has to be counted.
  const from = sql`from users u
    where u.tenant_id = ${tenantId} and u.usertype = 0 ${search}
      and exists (
        select 1 from user_groups ug
        where ug.tenant_id = u.tenant_id and ug.group_id = ${groupId} and ug.user_id = u.id
      )`;
  const fromMemberships = sql`from user_groups ug
    join users u on u.tenant_id = ug.tenant_id and u.id = ug.user_id
    where ug.tenant_id = ${tenantId} and ug.group_id = ${groupId} and u.usertype = 0 ${search}`;
  const key = query.cursor ? decodeCursor(query.cursor, 'username', query.order, 2) : null;
  const after = key
    ? sql`and ${afterKey([sql`u.username`, sql`u.id`], [sql`${key[0]}`, sql`${key[1]}::uuid`], query.order)}`
    : sql``;
  // One row more than the page tells whether another page follows.
  const rows = await queryRows<{
    id: string;
    username: string;
    firstname: string;
    lastname: string;
    connstatus: string;
  }>(
    tx,
    sql`select u.id, u.username, u.firstname, u.lastname, u.connstatus ${from} ${after}
      order by u.username ${dir}, u.id ${dir}
      limit ${query.limit + 1} offset ${query.cursor ? 0 : query.offset}`,
  );
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  const total = await pageTotal(tx, fromMemberships, { ...query, rows: items.length });
  return {
    items,
    ...total,
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor('username', query.order, [last.username, String(last.id)])
        : null,
  };
}

/** The end users of the tenant among `ids`, with their usernames (for the checks and the event log). */
export async function findEndUsers(tx: Tx, tenantId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.usertype, 0), inArray(users.id, ids)));
}

/** Adds memberships; existing ones stay. Returns the user ids that were added. */
export async function addMembers(tx: Tx, tenantId: string, groupId: string, userIds: string[]) {
  if (userIds.length === 0) return [];
  const rows = await tx
    .insert(userGroups)
    .values(userIds.map((userId) => ({ tenantId, userId, groupId })))
    .onConflictDoNothing()
    .returning({ userId: userGroups.userId });
  return rows.map((row) => row.userId);
}

/** Gives group `toId` the end users of group `fromId` (a copy's members), in one statement at any size. */
export async function copyMembers(tx: Tx, tenantId: string, fromId: string, toId: string): Promise<void> {
  await tx.execute(
    sql`insert into user_groups (tenant_id, user_id, group_id)
      select ug.tenant_id, ug.user_id, ${toId}::uuid from user_groups ug
      join users u on u.tenant_id = ug.tenant_id and u.id = ug.user_id
      where ug.tenant_id = ${tenantId} and ug.group_id = ${fromId}::uuid and u.usertype = 0
      on conflict do nothing`,
  );
}

/** Removes memberships. Returns the user ids that were removed. */
export async function removeMembers(tx: Tx, tenantId: string, groupId: string, userIds: string[]) {
  if (userIds.length === 0) return [];
  const rows = await tx
    .delete(userGroups)
    .where(
      and(
        eq(userGroups.tenantId, tenantId),
        eq(userGroups.groupId, groupId),
        inArray(userGroups.userId, userIds),
      ),
    )
    .returning({ userId: userGroups.userId });
  return rows.map((row) => row.userId);
}

/** How many users are in a group. */
export async function countMembers(tx: Tx, tenantId: string, groupId: string): Promise<number> {
  const rows = await queryRows<{ total: number | string }>(
    tx,
    sql`select count(*) as total from user_groups where tenant_id = ${tenantId} and group_id = ${groupId}`,
  );
  return Number(rows[0]?.total ?? 0);
}

/** The policy groups assigned to a group: they stop applying to its members when the group goes. */
export async function policyGroupReferences(tx: Tx, tenantId: string, groupId: string) {
  const rows = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select policy_groups.id, policy_groups.name from policy_group_groups
      join policy_groups on policy_groups.tenant_id = policy_group_groups.tenant_id
        and policy_groups.id = policy_group_groups.policy_group_id
      where policy_group_groups.tenant_id = ${tenantId} and policy_group_groups.group_id = ${groupId}
      order by lower(policy_groups.name)`,
  );
  return rows.map((row) => ({ type: 'policyGroup', id: String(row.id), name: String(row.name) }));
}
