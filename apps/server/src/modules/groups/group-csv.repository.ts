import { eq, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { groups, userGroups } from '../../db/schema';

const uuidList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** Every group of the tenant (id and name): which names of a file exist already. */
export function allGroupNames(tx: Tx, tenantId: string) {
  return tx.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.tenantId, tenantId));
}

/** The end users (usertype 0) of the tenant among these lower-case usernames, by lower-case username. */
export async function endUsersByUsername(tx: Tx, tenantId: string, names: string[]) {
  if (names.length === 0) return new Map<string, string>();
  const rows = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select users.id, lower(users.username) as name from users
      where users.tenant_id = ${tenantId} and users.usertype = 0 and lower(users.username) in (${sql.join(
        names.map((name) => sql`${name}`),
        sql`, `,
      )})`,
  );
  return new Map(rows.map((row) => [String(row.name), String(row.id)]));
}

/**
 * Creates groups; a name another writer took since the file was checked is skipped (not an error), so the
 * caller treats it as existing. Returns the created ids by lower-case name.
 */
export async function insertGroups(tx: Tx, tenantId: string, rows: { name: string; description: string }[]) {
  if (rows.length === 0) return new Map<string, string>();
  const created = await queryRows<{ id: string; name: string }>(
    tx,
    sql`insert into groups (tenant_id, name, description) values ${sql.join(
      rows.map((row) => sql`(${tenantId}, ${row.name}, ${row.description})`),
      sql`, `,
    )}
      on conflict (tenant_id, lower(name)) do nothing
      returning groups.id, groups.name`,
  );
  return new Map(created.map((row) => [String(row.name).toLowerCase(), String(row.id)]));
}

/** Ids of the tenant's groups with these lower-case names, by lower-case name. */
export async function groupIdsByName(tx: Tx, tenantId: string, names: string[]) {
  if (names.length === 0) return new Map<string, string>();
  const rows = await queryRows<{ id: string; name: string }>(
    tx,
    sql`select groups.id, lower(groups.name) as name from groups
      where groups.tenant_id = ${tenantId} and lower(groups.name) in (${sql.join(
        names.map((name) => sql`${name}`),
        sql`, `,
      )})`,
  );
  return new Map(rows.map((row) => [String(row.name), String(row.id)]));
}

/** Sets descriptions of groups; returns the ids whose description actually changed. */
export async function setDescriptions(
  tx: Tx,
  tenantId: string,
  changes: { id: string; description: string }[],
) {
  if (changes.length === 0) return new Set<string>();
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`update groups set description = v.description, updated_at = now()
      from (values ${sql.join(
        changes.map((change) => sql`(${change.id}::uuid, ${change.description}::text)`),
        sql`, `,
      )}) as v (id, description)
      where groups.tenant_id = ${tenantId} and groups.id = v.id and groups.description is distinct from v.description
      returning groups.id`,
  );
  return new Set(rows.map((row) => String(row.id)));
}

/** Adds memberships (existing ones stay); returns the group id of each membership added. */
export async function addMemberships(tx: Tx, tenantId: string, pairs: { groupId: string; userId: string }[]) {
  if (pairs.length === 0) return [];
  const rows = await tx
    .insert(userGroups)
    .values(pairs.map((pair) => ({ tenantId, ...pair })))
    .onConflictDoNothing()
    .returning({ groupId: userGroups.groupId });
  return rows.map((row) => row.groupId);
}

/**
 * The end-user members of these groups, each group's in username order. Memberships and usernames are read
 * apart: joined in one query, a planner without statistics walks the memberships once per user.
 */
export async function membersOf(tx: Tx, tenantId: string, groupIds: string[]) {
  const byGroup = new Map<string, string[]>();
  if (groupIds.length === 0) return byGroup;
  const memberships = await queryRows<{ group_id: string; user_id: string }>(
    tx,
    sql`select user_groups.group_id, user_groups.user_id from user_groups
      where user_groups.tenant_id = ${tenantId} and user_groups.group_id in (${uuidList(groupIds)})`,
  );
  const userIds = [...new Set(memberships.map((row) => String(row.user_id)))];
  const usernames = new Map<string, string>();
  for (let i = 0; i < userIds.length; i += 5000) {
    const rows = await queryRows<{ id: string; username: string }>(
      tx,
      sql`select users.id, users.username from users
        where users.tenant_id = ${tenantId} and users.usertype = 0
          and users.id in (${uuidList(userIds.slice(i, i + 5000))})`,
    );
    for (const row of rows) usernames.set(String(row.id), row.username);
  }
  for (const row of memberships) {
    const username = usernames.get(String(row.user_id));
    if (username === undefined) continue;
    const list = byGroup.get(String(row.group_id));
    if (list) list.push(username);
    else byGroup.set(String(row.group_id), [username]);
  }
  for (const list of byGroup.values()) list.sort(byCodePoint);
  return byGroup;
}

/** Orders strings by code point (as PostgreSQL's C collation), the same on every server. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
