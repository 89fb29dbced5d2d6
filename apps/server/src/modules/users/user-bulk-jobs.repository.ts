import { and, asc, type SQL, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { users } from '../../db/schema';
import { matchingEndUsers } from './users.repository';

/** The access flags a bulk change can set (column names of `users`). */
export type FlagColumn = 'isprvaccess' | 'issiauser' | 'isxdrenabled';

/**
 * Ids as one array parameter (`'{…}'::uuid[]`): a statement over 5 000 users carries one bound value, not
 * 5 000 placeholders. The ids are uuids already (validated, or read from the table).
 */
const idArray = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** How many rows a data-changing statement touched, counted in the database (no 5 000 rows sent back). */
async function countChanged(tx: Tx, statement: SQL): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    tx,
    sql`with changed as (${statement} returning 1) select count(*)::int as n from changed`,
  );
  return Number(row?.n ?? 0);
}

/** Every end user matching the search (all without `q`), ordered by id: the snapshot a bulk job works through. */
export async function matchingIds(tx: Tx, tenantId: string, q: string | undefined): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(matchingEndUsers(tenantId, q))
    .orderBy(asc(users.id));
  return rows.map((r) => r.id);
}

/** The ids among `ids` that are end users of the tenant, ordered by id. */
export async function existingIds(tx: Tx, tenantId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(matchingEndUsers(tenantId, undefined), sql`${users.id} = any(${idArray(ids)})`))
    .orderBy(asc(users.id));
  return rows.map((r) => r.id);
}

/** Sets one access flag on a batch of end users; counts only those whose flag changed. */
export function setFlag(tx: Tx, tenantId: string, ids: string[], column: FlagColumn, value: boolean) {
  const col = sql.identifier(column);
  return countChanged(
    tx,
    sql`update users set ${col} = ${value}, updated_at = now()
        where users.tenant_id = ${tenantId} and users.usertype = 0 and users.id = any(${idArray(ids)})
          and users.${col} is distinct from ${value}`,
  );
}

/** Adds a batch of end users to a group; members already in it are left alone and not counted. */
export function addToGroup(tx: Tx, tenantId: string, ids: string[], groupId: string) {
  return countChanged(
    tx,
    sql`insert into user_groups (tenant_id, user_id, group_id)
        select users.tenant_id, users.id, ${groupId}::uuid from users
        where users.tenant_id = ${tenantId} and users.usertype = 0 and users.id = any(${idArray(ids)})
        on conflict do nothing`,
  );
}

/** Removes a batch of users from a group; counts the memberships that ended. */
export function removeFromGroup(tx: Tx, tenantId: string, ids: string[], groupId: string) {
  return countChanged(
    tx,
    sql`delete from user_groups
        where user_groups.tenant_id = ${tenantId} and user_groups.group_id = ${groupId}::uuid
          and user_groups.user_id = any(${idArray(ids)})`,
  );
}

/** Deletes a batch of end users (memberships, sessions and tokens go with them); counts the deleted. */
export function deleteUsers(tx: Tx, tenantId: string, ids: string[]) {
  return countChanged(
    tx,
    sql`delete from users
        where users.tenant_id = ${tenantId} and users.usertype = 0 and users.id = any(${idArray(ids)})`,
  );
}

/** The usernames of the end users among `ids`, in id order (the event log names the users a change covered). */
export async function usernames(tx: Tx, tenantId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ username: users.username })
    .from(users)
    .where(and(matchingEndUsers(tenantId, undefined), sql`${users.id} = any(${idArray(ids)})`))
    .orderBy(asc(users.id));
  return rows.map((r) => r.username);
}
