import { and, asc, type SQL, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { pgArray } from '../../db/driver';
import { users } from '../../db/schema';
import { matchingEndUsers } from './users.repository';

/** The access flags a bulk change can set (column names of `users`). */
export type FlagColumn = 'isprvaccess' | 'issiauser' | 'isxdrenabled';

/** Ids as one `uuid[]` parameter: a statement over 5 000 users carries one bound value, not 5 000 placeholders. */
const idArray = (ids: string[]) => pgArray(ids, 'uuid');

/**
 * The users a data-changing statement changed (the statement answers `user_id`), as one array in one row (no
 * 5 000 rows sent back): a bulk change keeps them so it can be undone.
 */
async function changedUsers(tx: Tx, statement: SQL): Promise<string[]> {
  const [row] = await queryRows<{ ids: string[] | null }>(
    tx,
    sql`with changed as (${statement}) select array_agg(user_id::text order by user_id) as ids from changed`,
  );
  return row?.ids ?? [];
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

/** Sets one access flag on a batch of end users; answers only those whose flag changed. */
export function setFlag(tx: Tx, tenantId: string, ids: string[], column: FlagColumn, value: boolean) {
  const col = sql.identifier(column);
  return changedUsers(
    tx,
    sql`update users set ${col} = ${value}, updated_at = now()
        where users.tenant_id = ${tenantId} and users.usertype = 0 and users.id = any(${idArray(ids)})
          and users.${col} is distinct from ${value}
        returning users.id as user_id`,
  );
}

/**
 * Disables a batch of end users (with why and by whom) or enables them; answers only those whose status
 * changed. Enabling clears the reason, as a single enable does.
 */
export function setStatus(
  tx: Tx,
  tenantId: string,
  ids: string[],
  change: { isDisabled: boolean; reason: string | null; by: string },
) {
  return changedUsers(
    tx,
    sql`update users set is_suspended = ${change.isDisabled}, status_reason = ${change.reason},
          status_changed_by = ${change.by}, status_changed_at = now(), updated_at = now()
        where users.tenant_id = ${tenantId} and users.usertype = 0 and users.id = any(${idArray(ids)})
          and users.is_suspended is distinct from ${change.isDisabled}
        returning users.id as user_id`,
  );
}

/** Adds a batch of end users to a group; members already in it are left alone and not answered. */
export function addToGroup(tx: Tx, tenantId: string, ids: string[], groupId: string) {
  return changedUsers(
    tx,
    sql`insert into user_groups (tenant_id, user_id, group_id)
        select users.tenant_id, users.id, ${groupId}::uuid from users
        where users.tenant_id = ${tenantId} and users.usertype = 0 and users.id = any(${idArray(ids)})
        on conflict do nothing
        returning user_groups.user_id`,
  );
}

/** Removes a batch of users from a group; answers those whose membership ended. */
export function removeFromGroup(tx: Tx, tenantId: string, ids: string[], groupId: string) {
  return changedUsers(
    tx,
    sql`delete from user_groups
        where user_groups.tenant_id = ${tenantId} and user_groups.group_id = ${groupId}::uuid
          and user_groups.user_id = any(${idArray(ids)})
        returning user_groups.user_id`,
  );
}

/** Deletes a batch of end users (memberships, sessions and tokens go with them); answers the deleted. */
export function deleteUsers(tx: Tx, tenantId: string, ids: string[]) {
  return changedUsers(
    tx,
    sql`delete from users
        where users.tenant_id = ${tenantId} and users.usertype = 0 and users.id = any(${idArray(ids)})
        returning users.id as user_id`,
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
