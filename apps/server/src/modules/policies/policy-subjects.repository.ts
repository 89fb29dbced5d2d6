import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { jsonList } from './policies.rows';

// The end users, user groups and devices that simulations, policy tests and policy groups name. Other modules own
// these tables (db/owners.ts lists why this one reads them).

/** An end user of the tenant with the ids and names of their groups, or null when there is none. */
export async function endUserWithGroups(tx: Tx, tenantId: string, userId: string) {
  const rows = await queryRows<{ id: string; username: string; groups: unknown }>(
    tx,
    sql`select users.id, users.username,
        coalesce((select jsonb_agg(jsonb_build_object('id', groups.id, 'name', groups.name) order by lower(groups.name))
          from user_groups join groups on groups.tenant_id = user_groups.tenant_id and groups.id = user_groups.group_id
          where user_groups.tenant_id = users.tenant_id and user_groups.user_id = users.id), '[]'::jsonb) as groups
      from users
      where users.tenant_id = ${tenantId} and users.id = ${userId} and users.usertype = 0`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: String(row.id),
    username: String(row.username),
    groups: jsonList<{ id: string; name: string }>(row.groups),
  };
}

/** The group ids of each of `userIds` (users without groups, or unknown, are absent). */
export async function groupIdsOfUsers(tx: Tx, tenantId: string, userIds: string[]) {
  const out = new Map<string, string[]>();
  if (userIds.length === 0) return out;
  const rows = await queryRows<{ user_id: string; group_id: string }>(
    tx,
    sql`select user_groups.user_id, user_groups.group_id from user_groups
      where user_groups.tenant_id = ${tenantId} and user_groups.user_id in (${sql.join(
        userIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
  );
  for (const row of rows) {
    const list = out.get(String(row.user_id)) ?? [];
    list.push(String(row.group_id));
    out.set(String(row.user_id), list);
  }
  return out;
}

/** The ids among `ids` that exist in the tenant, per kind of object (users: end users only). */
async function existingIds(
  tx: Tx,
  tenantId: string,
  table: 'policies' | 'groups' | 'users' | 'devices',
  ids: string[],
) {
  if (ids.length === 0) return new Set<string>();
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const from = {
    policies: sql`select id from policies where tenant_id = ${tenantId}`,
    groups: sql`select id from groups where tenant_id = ${tenantId}`,
    users: sql`select id from users where tenant_id = ${tenantId} and usertype = 0`,
    devices: sql`select id from devices where tenant_id = ${tenantId}`,
  }[table];
  const rows = await queryRows<{ id: string }>(tx, sql`${from} and id in (${list})`);
  return new Set(rows.map((row) => String(row.id)));
}

export const existingPolicyIds = (tx: Tx, tenantId: string, ids: string[]) =>
  existingIds(tx, tenantId, 'policies', ids);
export const existingGroupIds = (tx: Tx, tenantId: string, ids: string[]) =>
  existingIds(tx, tenantId, 'groups', ids);
export const existingEndUserIds = (tx: Tx, tenantId: string, ids: string[]) =>
  existingIds(tx, tenantId, 'users', ids);
export const existingDeviceIds = (tx: Tx, tenantId: string, ids: string[]) =>
  existingIds(tx, tenantId, 'devices', ids);
